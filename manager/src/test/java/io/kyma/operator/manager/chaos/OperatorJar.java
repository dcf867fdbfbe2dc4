package io.kyma.operator.manager.chaos;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.kyma.operator.testing.HangCatcher;

/**
 * The manager jar this module built, run as a process of its own with the real flags, so that it can be killed with
 * SIGKILL at any moment: no shutdown hook, no lease released, no in-flight write finished.
 */
final class OperatorJar implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Process process;
    private final URI metrics;
    private final URI probe;
    private final Instant started = Instant.now();
    private final CompletableFuture<Instant> exited;

    private OperatorJar(Process process, int metricsPort, int probesPort, String probe) {
        this.process = process;
        this.metrics = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
        this.probe = URI.create("http://127.0.0.1:" + probesPort + probe);
        this.exited = process.onExit().thenApply(p -> Instant.now());
    }

    /** Starts the operator with {@code kubeconfig} on {@code namespace} and waits until it is ready. */
    static OperatorJar start(Path kubeconfig, String namespace, List<String> flags, Path log) {
        return start(kubeconfig, namespace, flags, log, "/readyz");
    }

    /**
     * Starts the operator and waits until {@code probe} ({@code /readyz}, or {@code /healthz} for a process behind an
     * {@link io.kyma.operator.testing.ApiFaultProxy}, whose HTTP watches only count as healthy after their first
     * event) answers 200.
     */
    static OperatorJar start(Path kubeconfig, String namespace, List<String> flags, Path log, String probe) {
        Path jar = Path.of("target", "kyma-operator.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing: the package phase builds it");
        }
        int metricsPort = freePort();
        int probesPort = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--namespace",
                namespace,
                "--metrics-bind-address",
                "127.0.0.1:" + metricsPort,
                "--health-probe-bind-address",
                "127.0.0.1:" + probesPort,
                "--log-level",
                "warn"));
        command.addAll(flags);
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            OperatorJar operator = new OperatorJar(process, metricsPort, probesPort, probe);
            // only a start that hangs fails: a JVM that starts while others keep the cores busy can take most of a
            // minute to load its classes and sync its informers
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !process.isAlive() || operator.ready());
            if (!process.isAlive()) {
                throw new IllegalStateException("the operator ended with " + process.exitValue() + "; see " + log);
            }
            return operator;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean ready() {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(probe)
                                            .timeout(Duration.ofSeconds(1))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The operator's metrics now; zero counters if it cannot be read. */
    ReplicaMetrics.Snapshot metrics() {
        String text = scrape();
        return text.isEmpty() ? ReplicaMetrics.Snapshot.ZERO : ReplicaMetrics.read(() -> text);
    }

    /** Whether the operator says it leads ({@code leader_election_master_status} 1); false if it cannot be read. */
    boolean leading() {
        return scrape().lines()
                .anyMatch(line -> line.startsWith("leader_election_master_status")
                        && Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)) == 1.0);
    }

    /** The sum of every series of the counter or gauge {@code metric} now; zero if it cannot be read. */
    double sum(String metric) {
        return scrape().lines()
                .filter(line -> line.startsWith(metric + "{") || line.startsWith(metric + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** When the process was started. */
    Instant started() {
        return started;
    }

    /** When the process ended, by a kill or on its own; empty while it runs. */
    Optional<Instant> exited() {
        return Optional.ofNullable(exited.getNow(null));
    }

    /** The metrics text; empty if it cannot be read. A busy process answers slowly, so the wait is long. */
    private String scrape() {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(metrics)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** SIGKILL, and wait until the process is gone (and its end recorded). */
    void kill() {
        process.destroyForcibly();
        exited.join();
    }

    @Override
    public void close() {
        kill();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
