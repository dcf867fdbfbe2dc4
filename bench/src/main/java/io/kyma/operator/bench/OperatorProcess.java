package io.kyma.operator.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.manager.config.ManagerConfig;

/** The real manager jar, started as a process of its own with the real flags. */
final class OperatorProcess implements OperatorUnderTest {
    static final String GC_LOG = "operator-gc.log";
    private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");
    private final Process process;
    private final Path gcLog;
    private final URI metrics;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String jcmd;
    private final List<WatchCloses.Pause> pauses = new CopyOnWriteArrayList<>();

    /** Ctrl-C or a kill of the harness must not leave the operator running. */
    private final Thread stopOnExit;

    private OperatorProcess(Process process, Path gcLog, URI metrics, String java) {
        this.process = process;
        this.gcLog = gcLog;
        this.stopOnExit = new Thread(process::destroy, "bench-stop-operator");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        this.metrics = metrics;
        // jcmd attaches only to a JVM of its own version
        Path javaPath = Path.of(java);
        this.jcmd = javaPath.getParent() == null
                ? "jcmd"
                : javaPath.resolveSibling("jcmd").toString();
    }

    static OperatorProcess start(BenchOptions options, ClusterUnderTest cluster, ManagerConfig config)
            throws IOException, InterruptedException {
        return start(options, cluster, "", List.of());
    }

    /**
     * @param suffix added to the names of its log files ("" for the only operator, "-1" for the second replica)
     * @param flags operator flags after the bench's, for example a replica's shard
     */
    static OperatorProcess start(BenchOptions options, ClusterUnderTest cluster, String suffix, List<String> flags)
            throws IOException, InterruptedException {
        Path jar = options.repository().resolve("manager/target/kyma-operator.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with `make build`");
        }
        int metricsPort = Bench.freePort();
        int probesPort = Bench.freePort();
        List<String> command = new ArrayList<>();
        if (options.operatorNice() > 0) { // every thread the JVM starts inherits it
            command.addAll(List.of("nice", "-n", Integer.toString(options.operatorNice())));
        }
        command.add(options.javaCommand());
        command.addAll(options.jvmOptions());
        Path gcLog = options.out().resolve(GC_LOG.replace(".log", suffix + ".log"));
        command.add(GcLog.option(gcLog)); // every pause, for the summary's gc_ keys
        command.addAll(List.of(
                "-jar",
                jar.toString(),
                "--kubeconfig",
                cluster.kubeconfig().toString(),
                "--namespace",
                "bench",
                "--transition-unit",
                GoDuration.format(options.unit()),
                "--metrics-bind-address",
                "127.0.0.1:" + metricsPort,
                "--health-probe-bind-address",
                "127.0.0.1:" + probesPort,
                "--log-level",
                "warn"));
        command.addAll(options.operatorFlags());
        command.addAll(flags);
        Path log = options.out().resolve("operator" + suffix + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(options.operatorEnvironment());
        Process process = builder.start();
        OperatorProcess operator = new OperatorProcess(
                process, gcLog, URI.create("http://127.0.0.1:" + metricsPort + "/metrics"), options.javaCommand());
        URI ready = URI.create("http://127.0.0.1:" + probesPort + "/readyz");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                if (Bench.get(operator.http, ready).equals("ok")) {
                    return operator;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                operator.close();
                throw new IllegalStateException("the operator did not become ready; see " + log);
            }
            Thread.sleep(200);
        }
    }

    @Override
    public PromText scrape() throws IOException, InterruptedException {
        return PromText.parse(Bench.get(http, metrics));
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public double rssMiB() {
        return ProcStats.rssMiB(process.pid());
    }

    /**
     * The RSS of the idle operator once it has stopped changing: sampled each second until the last
     * {@link #SETTLE_WINDOW} samples lie within {@link #SETTLE_SPREAD_MIB} of each other, at most
     * {@link #SETTLE_MAX_SAMPLES} samples. Right after start the JIT is still compiling and the native memory it
     * used is handed back only at the next trim, so the RSS at readiness says more about start-up than about
     * what an empty operator holds.
     */
    @Override
    public double settledRssMiB() throws InterruptedException {
        List<Double> samples = new ArrayList<>();
        while (true) {
            samples.add(rssMiB());
            OptionalDouble settled = settled(samples);
            if (settled.isPresent()) {
                return settled.getAsDouble();
            }
            if (samples.size() >= SETTLE_MAX_SAMPLES) {
                return samples.get(samples.size() - 1);
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Samples a second apart that must agree. The smoke test of {@code make test} sets {@code bench.settleWindow} to
     * fewer: its figures are checked for form, not value.
     */
    static final int SETTLE_WINDOW = Integer.getInteger("bench.settleWindow", 10);

    static final double SETTLE_SPREAD_MIB = 1.0;
    static final int SETTLE_MAX_SAMPLES = 90;

    /** The last sample once the last {@link #SETTLE_WINDOW} samples are within the spread; else nothing yet. */
    static OptionalDouble settled(List<Double> samples) {
        if (samples.size() < SETTLE_WINDOW) {
            return OptionalDouble.empty();
        }
        List<Double> window = samples.subList(samples.size() - SETTLE_WINDOW, samples.size());
        double min = window.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = window.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return max - min < SETTLE_SPREAD_MIB
                ? OptionalDouble.of(samples.get(samples.size() - 1))
                : OptionalDouble.empty();
    }

    @Override
    public double peakRssMiB() {
        return ProcStats.peakRssMiB(process.pid());
    }

    @Override
    public double cpuSeconds() {
        return ProcStats.cpuSeconds(process.pid());
    }

    /** The live heap: its bytes and the classes taking the most of it. */
    record LiveHeap(double bytes, String histogram) {}

    /**
     * Bytes of live objects (the class histogram's total, which it takes after a full collection): one stop of the
     * operator, not two.
     */
    @Override
    public double heapAfterFullGc() throws IOException, InterruptedException {
        return liveHeap(0).bytes();
    }

    /** The live heap and its {@code lines} largest classes, from one class histogram (one full collection). */
    @Override
    public LiveHeap liveHeap(int lines) throws IOException, InterruptedException {
        String full = jcmd("GC.class_histogram");
        return new LiveHeap(histogramTotalBytes(full), histogram(full, lines));
    }

    /** The bytes on the histogram's "Total" line (instances, then bytes). */
    static double histogramTotalBytes(String histogram) {
        Matcher m = TOTAL.matcher(histogram);
        if (!m.find()) {
            throw new IllegalStateException("no total in the class histogram: "
                    + histogram.lines().limit(3).toList());
        }
        return Double.parseDouble(m.group(1));
    }

    /**
     * The first {@code lines} classes of a class histogram (after its three header lines), then the operator's own
     * classes wherever they rank, then the total: where a HelmComponent ranks is what a reader looks for.
     */
    static String histogram(String full, int lines) {
        List<String> all = full.lines().toList();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            String line = all.get(i);
            if (i < lines + 3 || line.contains("io.kyma.operator.") || line.startsWith("Total")) {
                kept.add(line);
            }
        }
        return String.join("\n", kept) + "\n";
    }

    /** The first line of {@code java -version}, which names the runtime without naming where it is installed. */
    /** The feature version (17, 25) of a java, from its {@code -version}; 0 if it cannot be told. */
    static int javaFeature(String command) {
        Matcher m = Pattern.compile("version \"(1\\.)?(\\d+)").matcher(javaVersion(command));
        return m.find() ? Integer.parseInt(m.group(2)) : 0;
    }

    static String javaVersion(String java) {
        try {
            Process version = new ProcessBuilder(java, "-version")
                    .redirectErrorStream(true)
                    .start();
            String first = new String(version.getInputStream().readAllBytes())
                    .lines()
                    .findFirst()
                    .orElse("?");
            version.waitFor();
            return first.trim();
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The JVM's own account of its memory, when it runs with -XX:NativeMemoryTracking. */
    @Override
    public String nativeMemory() throws IOException, InterruptedException {
        return jcmd("VM.native_memory summary");
    }

    @Override
    public void heapDump(Path file) throws IOException, InterruptedException {
        jcmd("GC.heap_dump " + file.toAbsolutePath());
    }

    /** Starts a JFR recording of the operator with the 'profile' settings. */
    @Override
    public void startRecording() throws IOException, InterruptedException {
        jcmd("JFR.start name=load settings=profile");
    }

    /** Stops the recording into {@code file} and reads its execution samples. */
    @Override
    public JfrProfile stopRecording(Path file) throws IOException, InterruptedException {
        jcmd("JFR.stop name=load filename=" + file);
        return JfrProfile.read(Path.of(jcmd).resolveSibling("jfr").toString(), file);
    }

    /** The spans of time a command of the bench held the operator stopped: full collections and heap walks. */
    @Override
    public List<WatchCloses.Pause> pauses() {
        return List.copyOf(pauses);
    }

    @Override
    public List<Path> gcLogs() {
        return List.of(gcLog);
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(jcmd, Long.toString(process.pid())));
        line.addAll(List.of(command.split(" ")));
        Instant start = Instant.now();
        Process tool = new ProcessBuilder(line).redirectErrorStream(true).start();
        String out = new String(tool.getInputStream().readAllBytes());
        tool.waitFor();
        if (command.startsWith("GC.")) { // each of these stops the operator's threads while it runs
            pauses.add(new WatchCloses.Pause(start, Instant.now()));
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        Bench.forgetShutdownHook(stopOnExit);
        process.destroy();
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
