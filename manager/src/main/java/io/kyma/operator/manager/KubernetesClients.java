package io.kyma.operator.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/** Builds the one client the manager shares between its controllers. */
public final class KubernetesClients {
    private KubernetesClients() {
    }

    public static KubernetesClient create(ManagerConfig config) {
        return create(config.kubeconfig().map(KubernetesClients::fromFile).orElseGet(() -> Config.autoConfigure(null)));
    }

    public static KubernetesClient create(Config clientConfig) {
        return new KubernetesClientBuilder()
                .withConfig(clientConfig)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    private static Config fromFile(String path) {
        try {
            Path file = Path.of(path);
            return Config.fromKubeconfig(null, Files.readString(file), file.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --kubeconfig " + path, e);
        }
    }
}
