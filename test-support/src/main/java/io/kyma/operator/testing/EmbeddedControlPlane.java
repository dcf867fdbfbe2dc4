package io.kyma.operator.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * A real kube-apiserver and etcd, started once per test JVM through fabric8 kube-api-test in offline mode and
 * stopped when the JVM exits. The binaries come from {@code hack/control-plane.sh install}.
 */
public final class EmbeddedControlPlane {
    public static final String KUBERNETES_VERSION = "1.20.2";
    private static final Path BINARIES =
            Path.of(System.getProperty("user.home"), ".kubeapitest", "k8s", KUBERNETES_VERSION + "-linux-amd64");
    private static final List<String> REQUIRED_BINARIES = List.of("kube-apiserver", "etcd", "kubectl");

    private static EmbeddedControlPlane instance;

    private final KubeAPIServer server;
    private final String kubeconfig;

    private EmbeddedControlPlane(KubeAPIServer server) {
        this.server = server;
        this.kubeconfig = server.getKubeConfigYaml();
    }

    /** The shared control plane, started on first use. */
    public static synchronized EmbeddedControlPlane get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    private static EmbeddedControlPlane start() {
        for (String binary : REQUIRED_BINARIES) {
            if (!Files.isExecutable(BINARIES.resolve(binary))) {
                throw new IllegalStateException(
                        "The embedded control plane is not installed: " + BINARIES.resolve(binary)
                                + " is missing. Run `hack/control-plane.sh install` (or `make test`, which does it).");
            }
        }
        long started = System.nanoTime();
        KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
                .withOfflineMode(true)
                .withApiServerVersion(KUBERNETES_VERSION)
                .withUpdateKubeConfig(false)
                .build());
        server.start();
        EmbeddedControlPlane plane = new EmbeddedControlPlane(server);
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "embedded-control-plane-stop"));
        try (KubernetesClient client = plane.newClient()) {
            System.out.printf(
                    "Embedded control plane: kube-apiserver v%s (%s) started in %d ms%n",
                    client.getKubernetesVersion().getGitVersion().replaceFirst("^v", ""),
                    client.getMasterUrl(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        return plane;
    }

    /** An admin kubeconfig for this control plane. */
    public String kubeconfigYaml() {
        return kubeconfig;
    }

    public Config config() {
        return Config.fromKubeconfig(kubeconfig);
    }

    /** A new admin client; the caller closes it. */
    public KubernetesClient newClient() {
        return newClient(null);
    }

    /** A new admin client whose requests also pass through {@code interceptor} (may be null). */
    public KubernetesClient newClient(Interceptor interceptor) {
        return new KubernetesClientBuilder()
                .withConfig(config())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(builder -> {
                    if (interceptor != null) {
                        builder.addOrReplaceInterceptor(interceptor.getClass().getSimpleName(), interceptor);
                    }
                })
                .build();
    }
}
