package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Where the operator's CPU of the load went, by the kind of thread, from each thread's line in /proc (Linux only):
 * time in the kernel (system calls of every thread: sockets, TLS records, futexes), the JIT compiler's threads, the
 * threads that collect garbage (the serial collector collects in the VM thread, at a safepoint), and the rest, the
 * operator's own code and its libraries. Each thread is read once a second and its last reading kept, so a thread
 * that ends during the load (the JVM stops compiler threads it no longer needs) still counts up to its last second.
 */
final class ThreadCpu {
    private static final double CLOCK_TICKS = 100.0;

    /** One thread's CPU ticks and what the JVM named it (the kernel keeps 15 characters of the name). */
    record Reading(String name, long userTicks, long systemTicks) {}

    /** CPU seconds of the load by part. */
    record Parts(double kernel, double jit, double gc, double rest) {
        double total() {
            return kernel + jit + gc + rest;
        }

        Map<String, Double> byName() {
            Map<String, Double> parts = new LinkedHashMap<>();
            parts.put("kernel", kernel);
            parts.put("jit", jit);
            parts.put("gc", gc);
            parts.put("rest", rest);
            return parts;
        }
    }

    private final long pid;
    private final Map<Long, Reading> first = new ConcurrentHashMap<>();
    private final Map<Long, Reading> last = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Daemons.timer("thread-cpu");

    ThreadCpu(long pid) {
        this.pid = pid;
    }

    /** Takes the first reading of every thread now, then one a second. */
    void start() {
        read().forEach((tid, reading) -> {
            first.put(tid, reading);
            last.put(tid, reading);
        });
        timer.scheduleAtFixedRate(() -> last.putAll(read()), 1, 1, TimeUnit.SECONDS);
    }

    /** Takes the last reading and answers the CPU since {@link #start} by part. */
    Parts stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(5, TimeUnit.SECONDS);
        last.putAll(read());
        return parts(first, last);
    }

    /** The CPU between two readings of each thread; a thread missing from {@code before} started in between. */
    static Parts parts(Map<Long, Reading> before, Map<Long, Reading> after) {
        double kernel = 0;
        double jit = 0;
        double gc = 0;
        double rest = 0;
        for (Map.Entry<Long, Reading> e : after.entrySet()) {
            Reading now = e.getValue();
            Reading then = before.getOrDefault(e.getKey(), new Reading(now.name(), 0, 0));
            double user = Math.max(0, now.userTicks() - then.userTicks()) / CLOCK_TICKS;
            kernel += Math.max(0, now.systemTicks() - then.systemTicks()) / CLOCK_TICKS;
            switch (kind(now.name())) {
                case JIT -> jit += user;
                case GC -> gc += user;
                case REST -> rest += user;
            }
        }
        return new Parts(kernel, jit, gc, rest);
    }

    enum Kind {
        JIT,
        GC,
        REST
    }

    /** HotSpot's names: "C2 CompilerThread0", "C1 CompilerThread0", "VM Thread", "GC Thread#0", "G1 Conc#0" ... */
    static Kind kind(String name) {
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return Kind.JIT;
        }
        if (name.equals("VM Thread")
                || name.startsWith("GC Thread")
                || name.startsWith("G1 ")
                || name.startsWith("ZWorker")
                || name.startsWith("Shenandoah")) {
            return Kind.GC;
        }
        return Kind.REST;
    }

    /** One line of /proc/PID/task/TID/stat: the name in parentheses, then utime and stime as fields 14 and 15. */
    static Reading parse(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 2).split(" ");
        return new Reading(stat.substring(open + 1, close), Long.parseLong(fields[11]), Long.parseLong(fields[12]));
    }

    private Map<Long, Reading> read() {
        Map<Long, Reading> readings = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    readings.put(
                            Long.parseLong(task.getFileName().toString()),
                            parse(Files.readString(task.resolve("stat"))));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        return readings;
    }
}
