package io.kyma.operator.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * Bytes waiting in the kernel on the operator's connections to the API server, four times a second, from the TCP
 * tables in /proc (Linux only). Two questions about a watcher the API server closed as unresponsive are answered
 * here: did the operator leave bytes unread on its sockets (its watch reader was behind), and did the API server leave
 * the operator's requests unread (the API server itself was short of CPU)?
 */
final class SocketBacklog {
    static final Duration PERIOD = Duration.ofMillis(250);
    /** How far before a close the samples count for it. */
    static final Duration WINDOW = Duration.ofSeconds(1);

    /** One sample: the most unread bytes on one of the operator's sockets, and on the API server's end of them. */
    record Sample(Instant at, long operatorUnread, long apiserverUnread) {}

    /** One row of /proc/net/tcp or tcp6. */
    record Socket(long inode, int localPort, int remotePort, long unsent, long unread) {}

    private final long operatorPid;
    private final int apiserverPort;
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Daemons.timer("socket-backlog");

    SocketBacklog(long operatorPid, int apiserverPort) {
        this.operatorPid = operatorPid;
        this.apiserverPort = apiserverPort;
    }

    void start() {
        timer.scheduleAtFixedRate(this::sampleNow, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(5, TimeUnit.SECONDS);
    }

    List<Sample> samples() {
        return List.copyOf(samples);
    }

    private void sampleNow() {
        try {
            Set<Long> inodes = socketInodes(Path.of("/proc", Long.toString(operatorPid), "fd"));
            List<Socket> sockets = new ArrayList<>();
            for (String table : List.of("tcp", "tcp6")) {
                Path file = Path.of("/proc", Long.toString(operatorPid), "net", table);
                if (Files.exists(file)) {
                    try (Stream<String> lines = Files.lines(file)) {
                        sockets.addAll(parse(lines));
                    }
                }
            }
            samples.add(sample(Instant.now(), sockets, inodes, apiserverPort));
        } catch (IOException | RuntimeException e) {
            // the operator may be gone or between two states of its fd table; the next sample will do
        }
    }

    /** The rows of a /proc/net/tcp table (its header line is skipped); queue sizes and ports are hexadecimal there. */
    static List<Socket> parse(Stream<String> lines) {
        List<Socket> sockets = new ArrayList<>();
        lines.map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("sl")).forEach(line -> {
            String[] f = line.split("\\s+");
            if (f.length < 10) {
                return;
            }
            String[] queues = f[4].split(":");
            sockets.add(new Socket(
                    Long.parseLong(f[9]),
                    port(f[1]),
                    port(f[2]),
                    Long.parseLong(queues[0], 16),
                    Long.parseLong(queues[1], 16)));
        });
        return sockets;
    }

    /** The port of the API server's URL, its scheme's default if the URL names none. */
    static int port(URI server) {
        if (server.getPort() >= 0) {
            return server.getPort();
        }
        return "http".equals(server.getScheme()) ? 80 : 443;
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
    }

    /**
     * The operator's sockets are those whose inode it holds and whose peer is the API server's port; the API server's
     * ends of them are the rows from that port back to their local ports (both live in the one network namespace).
     */
    static Sample sample(Instant at, List<Socket> sockets, Set<Long> operatorInodes, int apiserverPort) {
        Set<Integer> operatorPorts = new HashSet<>();
        long operatorUnread = 0;
        for (Socket s : sockets) {
            if (operatorInodes.contains(s.inode()) && s.remotePort() == apiserverPort) {
                operatorPorts.add(s.localPort());
                operatorUnread = Math.max(operatorUnread, s.unread());
            }
        }
        long apiserverUnread = 0;
        for (Socket s : sockets) {
            if (s.localPort() == apiserverPort && operatorPorts.contains(s.remotePort())) {
                apiserverUnread = Math.max(apiserverUnread, s.unread());
            }
        }
        return new Sample(at, operatorUnread, apiserverUnread);
    }

    /** The inodes of the sockets a process holds open ("socket:[12345]" links in its fd directory). */
    static Set<Long> socketInodes(Path fdDirectory) throws IOException {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(fdDirectory)) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException e) {
                    // closed while listing
                }
            }
        }
        return inodes;
    }

    /** The most of {@code bytes} in the samples of the {@link #WINDOW} before any of {@code times}; -1 if none. */
    static long maxBefore(List<Sample> samples, List<Instant> times, ToLongFunction<Sample> bytes) {
        long max = -1;
        for (Instant t : times) {
            for (Sample s : samples) {
                if (!s.at().isAfter(t) && s.at().isAfter(t.minus(WINDOW))) {
                    max = Math.max(max, bytes.applyAsLong(s));
                }
            }
        }
        return max;
    }

    /** Every sample, as seconds since {@code start}, for a chart or a second look. */
    static String csv(List<Sample> samples, Instant start) {
        StringBuilder out = new StringBuilder("seconds,operator_unread_bytes,apiserver_unread_bytes\n");
        for (Sample s : samples) {
            out.append(String.format(
                    Locale.ROOT,
                    "%.2f,%d,%d%n",
                    Duration.between(start, s.at()).toMillis() / 1000.0,
                    s.operatorUnread(),
                    s.apiserverUnread()));
        }
        return out.toString();
    }
}
