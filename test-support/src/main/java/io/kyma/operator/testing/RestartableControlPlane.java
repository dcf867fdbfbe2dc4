package io.kyma.operator.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * A control plane of its own (kube-apiserver v1.20.2 and etcd, the binaries of {@code hack/control-plane.sh install})
 * whose parts can be stopped and started again while clients run: kube-apiserver alone (etcd keeps the data) or etcd
 * alone (same data directory). It listens on free loopback ports, keeps its state in a temporary directory that
 * {@link #close()} removes, never compacts etcd (so {@link EtcdHistory} can read every version ever written), and
 * admits one admin token.
 */
public final class RestartableControlPlane implements AutoCloseable {
    private static final Path BINARIES = Path.of(
            System.getProperty("user.home"),
            ".kubeapitest",
            "k8s",
            EmbeddedControlPlane.KUBERNETES_VERSION + "-linux-amd64");

    private final Path dir;
    private final String token = UUID.randomUUID().toString().replace("-", "");
    private final int etcdPort = freePort();
    private final int etcdPeerPort = freePort();
    private final int apiPort = freePort();
    private Process etcd;
    private Process apiServer;

    private RestartableControlPlane() throws IOException {
        dir = Files.createTempDirectory("restartable-control-plane");
        Files.createDirectories(dir.resolve("certs"));
        Files.writeString(dir.resolve("tokens.csv"), token + ",admin,admin,system:masters\n");
        KeyPair keys;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            keys = generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Files.writeString(
                dir.resolve("certs/sa.key"),
                pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
        Files.writeString(
                dir.resolve("certs/sa.pub"), pem("PUBLIC KEY", keys.getPublic().getEncoded()));
    }

    /** Starts etcd and kube-apiserver and waits until the API server is ready. */
    public static RestartableControlPlane start() {
        try {
            RestartableControlPlane plane = new RestartableControlPlane();
            plane.startEtcd();
            plane.startApiServer();
            return plane;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The admin configuration: the token, and the API server's self-signed certificate trusted. */
    public Config config() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl("https://127.0.0.1:" + apiPort)
                .withOauthToken(token)
                .withTrustCerts(true)
                .withNamespace("default")
                .build();
    }

    public KubernetesClient newClient() {
        return new KubernetesClientBuilder()
                .withConfig(config())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    /** etcd's client address, for reading the history of writes. */
    public String etcdUrl() {
        return "http://127.0.0.1:" + etcdPort;
    }

    /** Stops kube-apiserver (SIGTERM, then SIGKILL after 10 s); etcd and its data stay. */
    public synchronized void stopApiServer() {
        stop(apiServer);
        apiServer = null;
    }

    /** Starts kube-apiserver again on the same port and waits until it is ready. */
    public synchronized void startApiServer() {
        List<String> command = List.of(
                BINARIES.resolve("kube-apiserver").toString(),
                "--etcd-servers",
                etcdUrl(),
                "--bind-address",
                "127.0.0.1",
                "--secure-port",
                Integer.toString(apiPort),
                "--cert-dir",
                dir.resolve("certs").toString(),
                "--token-auth-file",
                dir.resolve("tokens.csv").toString(),
                "--authorization-mode",
                "RBAC",
                "--service-account-issuer",
                "https://kubernetes.default.svc",
                "--service-account-key-file",
                dir.resolve("certs/sa.pub").toString(),
                "--service-account-signing-key-file",
                dir.resolve("certs/sa.key").toString(),
                "--service-cluster-ip-range",
                "10.0.0.0/24",
                "--disable-admission-plugins",
                "ServiceAccount",
                "--etcd-compaction-interval",
                "0");
        apiServer = launch(command, "apiserver.log");
        awaitReady();
    }

    /** Stops etcd and starts it again on the same data; kube-apiserver keeps running and reconnects. */
    public synchronized void restartEtcd() {
        stop(etcd);
        startEtcd();
    }

    /** Stops etcd alone, for a longer outage; {@link #startEtcd()} brings it back. */
    public synchronized void stopEtcd() {
        stop(etcd);
        etcd = null;
    }

    public synchronized void startEtcd() {
        String peer = "http://127.0.0.1:" + etcdPeerPort;
        etcd = launch(
                List.of(
                        BINARIES.resolve("etcd").toString(),
                        "--data-dir",
                        dir.resolve("etcd").toString(),
                        "--listen-client-urls",
                        etcdUrl(),
                        "--advertise-client-urls",
                        etcdUrl(),
                        "--listen-peer-urls",
                        peer,
                        "--initial-advertise-peer-urls",
                        peer,
                        "--initial-cluster",
                        "default=" + peer,
                        "--name",
                        "default"),
                "etcd.log");
    }

    /** The last lines of a part's log, for a failure message. */
    public String log(String part, int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve(part + ".log"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized void close() {
        stop(apiServer);
        stop(etcd);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    private Process launch(List<String> command, String log) {
        try {
            return new ProcessBuilder(new ArrayList<>(command))
                    .redirectErrorStream(true)
                    .redirectOutput(
                            ProcessBuilder.Redirect.appendTo(dir.resolve(log).toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    /**
     * Waits until kube-apiserver answers /readyz. The deadline only catches one that cannot start: on a busy machine
     * its start, which loads every built-in API, can take most of a minute.
     */
    private void awaitReady() {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        try (KubernetesClient client = newClient()) {
            while (true) {
                try {
                    if ("ok".equals(client.raw("/readyz"))) {
                        return;
                    }
                } catch (RuntimeException e) {
                    // not listening yet
                }
                if (!apiServer.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("kube-apiserver did not become ready:\n" + log("apiserver", 20));
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void stop(Process process) {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
