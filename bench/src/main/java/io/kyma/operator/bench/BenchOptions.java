package io.kyma.operator.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.HelpRequested;
import io.kyma.operator.flags.Parsers;

/** The benchmark's options: {@code --n 1000 --unit 1s [--kubeconfig FILE] [--out DIR] [operator flags after --]}. */
record BenchOptions(
        int n,
        Duration unit,
        Optional<Path> kubeconfig,
        Path out,
        Path repository,
        String javaCommand,
        List<String> jvmOptions,
        Map<String, String> operatorEnvironment,
        boolean heapDump,
        boolean profile,
        boolean heapProbes,
        Duration afterBurst,
        List<String> operatorFlags,
        Optional<ArrivalRate> arrivalRate,
        int operatorNice,
        int shards,
        int apiserverWatchBuffer,
        boolean noisyNeighbour) {

    /**
     * Open loop: Kymas arrive one after another at a steady rate, either {@code perSecond} or {@code share} of the
     * rate the measured ceiling allows (ceiling / writes of the T(1) Kyma).
     */
    record ArrivalRate(double perSecond, double share) {
        static ArrivalRate parse(String text) {
            double value = Double.parseDouble(text.endsWith("%") ? text.substring(0, text.length() - 1) : text);
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("must be above 0, got " + text);
            }
            return text.endsWith("%") ? new ArrivalRate(0, value / 100) : new ArrivalRate(value, 0);
        }

        /** Kymas per second, given the ceiling and the writes one Kyma took. */
        double perSecond(double ceilingWritesPerSecond, double writesPerKyma) {
            return perSecond > 0 ? perSecond : share * ceilingWritesPerSecond / writesPerKyma;
        }
    }

    private static final Flag<Integer> N =
            Flag.of("n", "1000", "Kymas of the 18 modules in the load.", Parsers.integer(1, 1_000_000));
    private static final Flag<Duration> UNIT =
            Flag.of("unit", "1s", "The operator's `--transition-unit`.", GoDuration::parsePositive);
    private static final Flag<Optional<Path>> KUBECONFIG = Flag.of(
            "kubeconfig",
            "",
            "A cluster to use; without it an embedded control plane is started.",
            Parsers.optional(Path::of));
    private static final Flag<Optional<Path>> OUT =
            Flag.of("out", "", "Where the report goes; empty: `target/bench/<timestamp>`.", Parsers.optional(Path::of));
    private static final Flag<Optional<Path>> REPOSITORY = Flag.of(
            "repository",
            "",
            "The repository root, for the operator jar and `hack/`; empty: found upwards.",
            Parsers.optional(Path::of));
    private static final Flag<Optional<String>> JAVA = Flag.of(
            "java",
            "",
            "The java that runs the operator; empty: `$JAVA_HOME/bin/java`, else `java`.",
            Parsers.optional(Parsers.text()));
    private static final Flag<String> JVM_OPTIONS = Flag.of(
            "jvm-options",
            "",
            "The operator's JVM flags; unless given, the Deployment's in `config/manager/manager.yaml` (its"
                    + " `JAVA_TOOL_OPTIONS` with its memory limit as `-XX:MaxRAM`, and its other environment variables"
                    + " for the operator).",
            Parsers.text());
    private static final Flag<String> JVM_EXTRA = Flag.of(
            "jvm-extra",
            "",
            "More JVM flags after those, for example `-XX:NativeMemoryTracking=summary`.",
            Parsers.text());
    private static final Flag<Boolean> HEAP_DUMP =
            Flag.ofSwitch("heap-dump", "false", "Also write the operator's heap at the end to `heap.hprof` (large).");
    private static final Flag<Boolean> PROFILE = Flag.ofSwitch(
            "profile",
            "false",
            "Record the operator with JFR during the load (`operator.jfr`) and write where its CPU went:"
                    + " `profile.txt` (top frames) and `profile.folded` (stacks for a flame graph).");
    private static final Flag<Boolean> HEAP_PROBES = Flag.ofSwitch(
            "heap-probes",
            "false",
            "Weigh the operator's live heap before the load and at every tenth of it (`heap-by-objects.csv`,"
                    + " `heap-histogram-peak.txt`): each is a class histogram, a full collection in the middle of"
                    + " the load that the operator would not do, which shrinks its heap, so the run's RSS is not what a deployment sees (its summary"
                    + " says `heap_probes=on` and counts them in `induced_gcs`). Off, the live heap is weighed once,"
                    + " after every figure.");
    private static final Flag<Duration> AFTER_BURST = Flag.of(
            "after-burst",
            "2m",
            "How long the operator is left idle after the last Kyma is Ready before `rss_after_burst_mb` is read.",
            GoDuration::parsePositive);
    private static final Flag<Optional<ArrivalRate>> ARRIVAL_RATE = Flag.of(
            "arrival-rate",
            "",
            "Open loop: create the Kymas one after another, K a second, or at P % of the rate the measured ceiling"
                    + " allows (ceiling / writes of the T(1) Kyma); empty: all N are created at once.",
            Parsers.optional(ArrivalRate::parse));
    private static final Flag<Integer> OPERATOR_NICE = Flag.of(
            "operator-nice",
            "0",
            "Run the operator at this nice value (0 to 19), so that the API server and etcd get the CPU first on a"
                    + " shared machine.",
            Parsers.integer(0, 19));
    private static final Flag<Integer> SHARDS = Flag.of(
            "shards",
            "1",
            "Run K operator replicas, each with `--shards K --shard-id i` (1: one unsharded operator); memory, CPU"
                    + " and writes are summed over them, the peak RSS is the largest replica's, and the summary gives"
                    + " each replica's share.",
            Parsers.integer(1, 64));
    private static final Flag<Integer> APISERVER_WATCH_BUFFER = Flag.of(
            "apiserver-watch-buffer",
            "0",
            "Run the embedded kube-apiserver built with a buffer of E events (11 to 1000) for each watcher of a"
                    + " custom resource instead of v1.20's 10, as later releases size it (`hack/control-plane.sh`,"
                    + " `APISERVER_WATCH_BUFFER`); 0 keeps v1.20's; not with `--kubeconfig`.",
            BenchOptions::watchBuffer);
    private static final Flag<Boolean> NOISY_NEIGHBOUR = Flag.ofSwitch(
            "noisy-neighbour",
            "false",
            "Tenant A (namespace `bench`) also has 50 Runs on a job service that answers in 5 s, and once A's N"
                    + " Kymas are created, tenant B (namespace `bench-neighbour`) creates one Kyma: the summary adds"
                    + " `neighbour_ready_s` and `neighbour_ready_ratio` (B's time to Ready over T(1)).");
    static final Flags FLAGS = Flags.withRest(List.of(
            N,
            UNIT,
            KUBECONFIG,
            OUT,
            REPOSITORY,
            JAVA,
            JVM_OPTIONS,
            JVM_EXTRA,
            HEAP_DUMP,
            PROFILE,
            HEAP_PROBES,
            AFTER_BURST,
            ARRIVAL_RATE,
            OPERATOR_NICE,
            SHARDS,
            APISERVER_WATCH_BUFFER,
            NOISY_NEIGHBOUR));

    static final String USAGE = FLAGS.usage("Usage: java -jar bench/target/kyma-bench.jar [flags] [-- operator flags]")
            + "\nFlags after -- go to the operator, for example -- --k8s-client-qps 300 --k8s-client-burst 300.\n";

    /**
     * @throws HelpRequested for {@code --help} or {@code -h}: the usage goes to standard output and the exit code is 0
     * @throws FlagException for a bad flag or combination, naming the flag
     */
    static BenchOptions parse(String[] args) {
        Flags.Values values = FLAGS.parse(args, Map.of());
        Optional<Path> kubeconfig = values.get(KUBECONFIG);
        boolean heapDump = values.get(HEAP_DUMP);
        boolean profile = values.get(PROFILE);
        int shards = values.get(SHARDS);
        int apiserverWatchBuffer = values.get(APISERVER_WATCH_BUFFER);
        List<String> operatorFlags = values.rest();
        if (apiserverWatchBuffer != 0 && kubeconfig.isPresent()) {
            throw new FlagException("--apiserver-watch-buffer builds the embedded API server; not with --kubeconfig");
        }
        if (operatorFlags.stream().anyMatch(f -> f.startsWith("--shards") || f.startsWith("--shard-id"))) {
            throw new FlagException("give the number of replicas as the bench's --shards, before --;"
                    + " it sets each replica's --shards and --shard-id");
        }
        if (shards > 1 && (heapDump || profile)) {
            throw new FlagException(
                    "--heap-dump and --profile measure one operator process; not with --shards " + shards);
        }
        Path repository = values.get(REPOSITORY).orElseGet(BenchOptions::findRepository);
        Path out = values.get(OUT)
                .orElseGet(() -> repository
                        .resolve("target/bench")
                        .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        String javaCommand = values.get(JAVA)
                .orElseGet(() -> System.getenv("JAVA_HOME") == null
                        ? "java"
                        : Path.of(System.getenv("JAVA_HOME"), "bin", "java").toString());
        List<String> jvm;
        Map<String, String> environment = Map.of();
        if (!values.given(JVM_OPTIONS)) {
            DeploymentJvm deployment = DeploymentJvm.read(repository);
            jvm = deployment.flagsFor(OperatorProcess.javaFeature(javaCommand));
            environment = deployment.environment();
        } else {
            jvm = words(values.get(JVM_OPTIONS));
        }
        if (!values.get(JVM_EXTRA).isBlank()) {
            jvm = new ArrayList<>(jvm);
            jvm.addAll(words(values.get(JVM_EXTRA)));
        }
        if (shards > 1 && jvm.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking"))) {
            throw new FlagException(
                    "native-memory tracking is sampled of one operator process; not with --shards " + shards);
        }
        return new BenchOptions(
                values.get(N),
                values.get(UNIT),
                kubeconfig,
                out,
                repository,
                javaCommand,
                List.copyOf(jvm),
                environment,
                heapDump,
                profile,
                values.get(HEAP_PROBES),
                values.get(AFTER_BURST),
                operatorFlags,
                values.get(ARRIVAL_RATE),
                values.get(OPERATOR_NICE),
                shards,
                apiserverWatchBuffer,
                values.get(NOISY_NEIGHBOUR));
    }

    private static List<String> words(String text) {
        return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
    }

    private static int watchBuffer(String text) {
        int value = Integer.parseInt(text);
        if (value != 0 && (value <= 10 || value > 1000)) {
            throw new IllegalArgumentException("must be 0 or from 11 to 1000, got " + value);
        }
        return value;
    }

    /** The same options with more operator flags. */
    BenchOptions withOperatorFlags(String... more) {
        List<String> flags = new ArrayList<>(operatorFlags);
        flags.addAll(List.of(more));
        return new BenchOptions(
                n,
                unit,
                kubeconfig,
                out,
                repository,
                javaCommand,
                jvmOptions,
                operatorEnvironment,
                heapDump,
                profile,
                heapProbes,
                afterBurst,
                List.copyOf(flags),
                arrivalRate,
                operatorNice,
                shards,
                apiserverWatchBuffer,
                noisyNeighbour);
    }

    static Path findRepository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("hack/control-plane.sh"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new FlagException("run it inside the repository, or give --repository");
        }
        return dir;
    }
}
