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
import java.util.ArrayList;
import java.util.List;

/**
 * The manager jar this module built, run as a process of its own with the real flags, so that it can be killed with
 * SIGKILL at any moment: no shutdown hook, no lease released, no in-flight write finished.
 */
final class OperatorJar implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Process process;
    private final URI metrics;
    private final URI ready;

    private OperatorJar(Process process, int metricsPort, int probesPort) {
        this.process = process;
        this.metrics = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
        this.ready = URI.create("http://127.0.0.1:" + probesPort + "/readyz");
    }

    /** Starts the operator with {@code kubeconfig} on {@code namespace} and waits until it is ready. */
    static OperatorJar start(Path kubeconfig, String namespace, List<String> flags, Path log) {
        Path jar = Path.of("target", "kyma-operator.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing: the package phase builds it");
        }
        int metricsPort = freePort();
        int probesPort = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", jar.toString(), "--kubeconfig", kubeconfig.toString(), "--namespace", namespace,
                "--metrics-bind-address", "127.0.0.1:" + metricsPort, "--health-probe-bind-address",
                "127.0.0.1:" + probesPort, "--log-level", "warn"));
        command.addAll(flags);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            OperatorJar operator = new OperatorJar(process, metricsPort, probesPort);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
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
            return HTTP.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The operator's metrics now; zero counters if it cannot be read. */
    ReplicaMetrics.Snapshot metrics() {
        try {
            String text = HTTP.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return ReplicaMetrics.read(() -> text);
        } catch (IOException e) {
            return ReplicaMetrics.Snapshot.ZERO;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ReplicaMetrics.Snapshot.ZERO;
        }
    }

    /** SIGKILL, and wait until the process is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
