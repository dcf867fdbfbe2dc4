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
                throw new IllegalArgumentException("--arrival-rate must be above 0, got " + text);
            }
            return text.endsWith("%") ? new ArrivalRate(0, value / 100) : new ArrivalRate(value, 0);
        }

        /** Kymas per second, given the ceiling and the writes one Kyma took. */
        double perSecond(double ceilingWritesPerSecond, double writesPerKyma) {
            return perSecond > 0 ? perSecond : share * ceilingWritesPerSecond / writesPerKyma;
        }
    }

    static final String USAGE = """
            Usage: java -jar bench/target/kyma-bench.jar [--help] [--n N] [--unit DURATION] [--kubeconfig FILE] [--out DIR]
                   [--repository DIR] [--java FILE] [--jvm-options "FLAGS"] [--jvm-extra "FLAGS"]
                   [--heap-dump] [--profile] [--arrival-rate K | P%] [--operator-nice N] [--shards K]
                   [--apiserver-watch-buffer E] [--noisy-neighbour] [-- operator flags]
              --n           Kymas of the 18 modules in the load (default 1000)
              --unit        the operator's --transition-unit (default 1s)
              --kubeconfig  a cluster to use; without it an embedded control plane is started
              --out         where the report goes (default target/bench/<timestamp>)
              --repository  the repository root, for the operator jar and hack/ (default: found upwards)
              --java        the java that runs the operator (default: $JAVA_HOME/bin/java, else java)
              --jvm-options the operator's JVM flags (default: the Deployment's in config/manager/manager.yaml:
                            its JAVA_TOOL_OPTIONS with its memory limit as -XX:MaxRAM, and its other
                            environment variables for the operator)
              --jvm-extra   more JVM flags after those, for example -XX:NativeMemoryTracking=summary
              --heap-dump   also write the operator's heap at the end to heap.hprof (large)
              --profile     record the operator with JFR during the load (operator.jfr) and write where its
                            CPU went: profile.txt (top frames) and profile.folded (stacks for a flame graph)
              --arrival-rate  open loop: create the Kymas one after another, K a second, or at P % of the
                            rate the measured ceiling allows (ceiling / writes of the T(1) Kyma); without
                            it all N are created at once
              --operator-nice  run the operator at this nice value (1 to 19; default 0, as the control
                            plane), so that the API server and etcd get the CPU first on a shared machine
              --shards      run K operator replicas, each with --shards K --shard-id i (default 1: one
                            unsharded operator); memory, CPU and writes are summed over them, the peak RSS
                            is the largest replica's, and the summary gives each replica's share
              --apiserver-watch-buffer  run the embedded kube-apiserver built with a buffer of E events (11 to
                            1000) for each watcher of a custom resource instead of v1.20's 10, as later
                            releases size it (hack/control-plane.sh, APISERVER_WATCH_BUFFER); not with
                            --kubeconfig
              --noisy-neighbour  tenant A (namespace bench) also has 50 Runs on a job service that answers in
                            5 s, and once A's N Kymas are created, tenant B (namespace bench-neighbour)
                            creates one Kyma: the summary adds neighbour_ready_s and neighbour_ready_ratio
                            (B's time to Ready over T(1))
            Flags after -- go to the operator, for example -- --k8s-client-qps 300 --k8s-client-burst 300.
            """;

    /** Thrown for {@code --help} or {@code -h}: the usage goes to standard output and the exit code is 0. */
    static final class HelpRequested extends RuntimeException {
        HelpRequested() {
            super("help", null, false, false);
        }
    }

    static BenchOptions parse(String[] args) {
        int n = 1000;
        Duration unit = Duration.ofSeconds(1);
        Optional<Path> kubeconfig = Optional.empty();
        Path out = null;
        Path repository = null;
        String javaCommand = System.getenv("JAVA_HOME") == null
                ? "java"
                : Path.of(System.getenv("JAVA_HOME"), "bin", "java").toString();
        String jvmOptions = null;
        String jvmExtra = "";
        boolean heapDump = false;
        boolean profile = false;
        Optional<ArrivalRate> arrivalRate = Optional.empty();
        int operatorNice = 0;
        int shards = 1;
        int apiserverWatchBuffer = 0;
        List<String> operatorFlags = new ArrayList<>();
        boolean noisyNeighbour = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                operatorFlags.addAll(List.of(args).subList(i + 1, args.length));
                break;
            }
            if (args[i].equals("--help") || args[i].equals("-h")) {
                throw new HelpRequested();
            }
            if (args[i].equals("--heap-dump")) {
                heapDump = true;
                continue;
            }
            if (args[i].equals("--profile")) {
                profile = true;
                continue;
            }
            if (args[i].equals("--noisy-neighbour")) {
                noisyNeighbour = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[++i];
            switch (args[i - 1]) {
                case "--n" -> n = Integer.parseInt(value);
                case "--unit" -> unit = GoDuration.parse(value);
                case "--kubeconfig" -> kubeconfig = value.isBlank() ? Optional.empty() : Optional.of(Path.of(value));
                case "--out" -> out = value.isBlank() ? null : Path.of(value);
                case "--repository" -> repository = Path.of(value);
                case "--java" -> javaCommand = value;
                case "--jvm-options" -> jvmOptions = value;
                case "--jvm-extra" -> jvmExtra = value;
                case "--arrival-rate" -> arrivalRate = Optional.of(ArrivalRate.parse(value));
                case "--operator-nice" -> operatorNice = Integer.parseInt(value);
                case "--shards" -> shards = Integer.parseInt(value);
                case "--apiserver-watch-buffer" -> apiserverWatchBuffer = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i - 1]);
            }
        }
        if (n < 1 || unit.isZero()) {
            throw new IllegalArgumentException("--n must be at least 1 and --unit above 0");
        }
        if (operatorNice < 0 || operatorNice > 19) {
            throw new IllegalArgumentException("--operator-nice must be from 0 to 19, got " + operatorNice);
        }
        if (apiserverWatchBuffer != 0 && (apiserverWatchBuffer <= 10 || apiserverWatchBuffer > 1000)) {
            throw new IllegalArgumentException(
                    "--apiserver-watch-buffer must be from 11 to 1000, got " + apiserverWatchBuffer);
        }
        if (apiserverWatchBuffer != 0 && kubeconfig.isPresent()) {
            throw new IllegalArgumentException(
                    "--apiserver-watch-buffer builds the embedded API server; not with" + " --kubeconfig");
        }
        if (shards < 1) {
            throw new IllegalArgumentException("--shards must be at least 1, got " + shards);
        }
        if (operatorFlags.stream().anyMatch(f -> f.startsWith("--shards") || f.startsWith("--shard-id"))) {
            throw new IllegalArgumentException("give the number of replicas as the bench's --shards, before --;"
                    + " it sets each replica's --shards and --shard-id");
        }
        if (shards > 1 && (heapDump || profile)) {
            throw new IllegalArgumentException(
                    "--heap-dump and --profile measure one operator process; not with" + " --shards " + shards);
        }
        if (repository == null) {
            repository = findRepository();
        }
        if (out == null) {
            out = repository
                    .resolve("target/bench")
                    .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        List<String> jvm;
        Map<String, String> environment = Map.of();
        if (jvmOptions == null) {
            DeploymentJvm deployment = DeploymentJvm.read(repository);
            jvm = deployment.flagsFor(OperatorProcess.javaFeature(javaCommand));
            environment = deployment.environment();
        } else {
            jvm = jvmOptions.isBlank() ? List.of() : List.of(jvmOptions.trim().split("\\s+"));
        }
        if (!jvmExtra.isBlank()) {
            jvm = new ArrayList<>(jvm);
            jvm.addAll(List.of(jvmExtra.trim().split("\\s+")));
        }
        if (shards > 1 && jvm.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking"))) {
            throw new IllegalArgumentException(
                    "native-memory tracking is sampled of one operator process; not with" + " --shards " + shards);
        }
        return new BenchOptions(
                n,
                unit,
                kubeconfig,
                out,
                repository,
                javaCommand,
                List.copyOf(jvm),
                environment,
                heapDump,
                profile,
                operatorFlags,
                arrivalRate,
                operatorNice,
                shards,
                apiserverWatchBuffer,
                noisyNeighbour);
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
            throw new IllegalArgumentException("run it inside the repository, or give --repository");
        }
        return dir;
    }
}
