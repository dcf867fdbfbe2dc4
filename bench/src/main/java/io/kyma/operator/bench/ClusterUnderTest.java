package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The cluster the benchmark runs on: the one of --kubeconfig, or an embedded control plane started with
 * hack/control-plane.sh on ports of its own, whose processes are known so that their CPU time can be read.
 */
final class ClusterUnderTest implements AutoCloseable {
    private final Path kubeconfig;
    private final Optional<Path> stateDir;
    private final Map<String, String> environment;
    private final Path script;

    private final Thread stopOnExit = new Thread(this::stopQuietly, "bench-stop-control-plane");

    private ClusterUnderTest(Path kubeconfig, Optional<Path> stateDir, Map<String, String> environment, Path script) {
        this.kubeconfig = kubeconfig;
        this.stateDir = stateDir;
        this.environment = environment;
        this.script = script;
        if (stateDir.isPresent()) { // Ctrl-C or a kill of the harness must not leave the control plane running
            Runtime.getRuntime().addShutdownHook(stopOnExit);
        }
    }

    static ClusterUnderTest start(BenchOptions options) throws IOException, InterruptedException {
        Path script = options.repository().resolve("hack/control-plane.sh");
        if (options.kubeconfig().isPresent()) {
            return new ClusterUnderTest(options.kubeconfig().get(), Optional.empty(), Map.of(), script);
        }
        Path dir = options.out().resolve("control-plane");
        // A report directory used before holds that run's etcd: every run starts from an empty cluster.
        deleteTree(dir);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CONTROL_PLANE_DIR", dir.toString());
        env.put("CONTROL_PLANE_KUBECONFIG", options.out().resolve("kubeconfig").toString());
        env.put("APISERVER_PORT", Integer.toString(Bench.freePort()));
        env.put("ETCD_PORT", Integer.toString(Bench.freePort()));
        env.put("ETCD_PEER_PORT", Integer.toString(Bench.freePort()));
        env.put("APISERVER_VERBOSITY", "1"); // logs every watcher it closes as unresponsive
        if (options.apiserverWatchBuffer() > 0) {
            env.put("APISERVER_WATCH_BUFFER", Integer.toString(options.apiserverWatchBuffer()));
        }
        ClusterUnderTest cluster =
                new ClusterUnderTest(options.out().resolve("kubeconfig"), Optional.of(dir), env, script);
        cluster.script("install");
        cluster.script("up");
        return cluster;
    }

    Path kubeconfig() {
        return kubeconfig;
    }

    Config clientConfig() throws IOException {
        return Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
    }

    /** The API server's own metrics. */
    PromText apiserverMetrics(KubernetesClient client) {
        return PromText.parse(client.raw("/metrics"));
    }

    /**
     * Watchers the embedded API server closed so far because their client did not read fast enough ("Forcing
     * watcher close due to unresponsiveness" in its log at verbosity 1; v1.20 has no metric for it), each with its
     * time; empty for a cluster of --kubeconfig.
     */
    Optional<WatchCloses> forcedWatchCloses() {
        if (stateDir.isEmpty()) {
            return Optional.empty();
        }
        try (var lines = Files.lines(stateDir.get().resolve("apiserver.log"), StandardCharsets.ISO_8859_1)) {
            return Optional.of(WatchCloses.parse(lines, ZoneId.systemDefault(), Instant.now()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** CPU seconds of the embedded API server and etcd; empty for a cluster of --kubeconfig. */
    Map<String, Double> cpuSeconds() {
        Map<String, Double> cpu = new LinkedHashMap<>();
        stateDir.ifPresent(dir -> {
            pid(dir.resolve("apiserver.pid")).ifPresent(pid -> cpu.put("apiserver", ProcStats.cpuSeconds(pid)));
            pid(dir.resolve("etcd.pid")).ifPresent(pid -> cpu.put("etcd", ProcStats.cpuSeconds(pid)));
        });
        return cpu;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (stateDir.isPresent()) {
            Bench.forgetShutdownHook(stopOnExit);
            script("down");
        }
    }

    private void stopQuietly() {
        try {
            script("down");
        } catch (IOException | RuntimeException e) {
            System.err.println("bench: could not stop the control plane: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void script(String command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), command).inheritIO();
        builder.environment().putAll(environment);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(
                kubeconfig.resolveSibling("control-plane.log").toFile()));
        int exit = builder.start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("hack/control-plane.sh " + command + " failed (exit " + exit + "); see "
                    + kubeconfig.resolveSibling("control-plane.log"));
        }
    }

    private static Optional<Long> pid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
