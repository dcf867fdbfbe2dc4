package io.kyma.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/** What a client behind an {@link ApiFaultProxy} sees when the proxy injects no fault: what the API server says. */
class ApiFaultProxyIT {
    private static final String LABEL = "fault-proxy.kyma-project.io/watch";

    private static KubernetesClient admin;

    /** A watch an informer may hold through the proxy, on objects nobody changes while it runs. */
    private record QuietWatch(String name, Function<KubernetesClient, SharedIndexInformer<?>> inform) {}

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    /**
     * An operator is ready once every informer watches. Through the proxy a watch is a plain GET (the proxy refuses
     * WebSockets), which the client counts as started only once bytes arrive: the proxy must not leave a watch of
     * objects that do not change silent, in one namespace, in all of them, or of a kind without namespaces.
     */
    @Test
    void aWatchOfObjectsThatDoNotChangeIsStartedThroughTheProxy() {
        String namespace = Namespaces.apply(admin, "fault-proxy-watch");
        String nobody = UUID.randomUUID().toString();
        List<QuietWatch> watches = List.of(
                new QuietWatch(
                        "config maps of one namespace",
                        c -> c.configMaps()
                                .inNamespace(namespace)
                                .withLabel(LABEL, nobody)
                                .inform()),
                new QuietWatch(
                        "secrets of every namespace",
                        c -> c.secrets()
                                .inAnyNamespace()
                                .withLabel(LABEL, nobody)
                                .inform()),
                new QuietWatch(
                        "namespaces",
                        c -> c.namespaces().withLabel(LABEL, nobody).inform()));
        try (ApiFaultProxy proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), "watcher");
                KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(proxy.clientConfig())
                        .build()) {
            for (QuietWatch watch : watches) {
                try (SharedIndexInformer<?> informer = watch.inform().apply(client)) {
                    await().alias(watch.name() + " watching")
                            .atMost(HangCatcher.STEP)
                            .pollInterval(Duration.ofMillis(100))
                            .until(informer::isWatching);
                }
            }
        }
    }

    @Test
    void anEventAfterTheQuietStartOfAWatchArrives() {
        String namespace = Namespaces.apply(admin, "fault-proxy-event");
        String value = UUID.randomUUID().toString();
        try (ApiFaultProxy proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), "watcher");
                KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(proxy.clientConfig())
                        .build();
                SharedIndexInformer<?> informer = client.configMaps()
                        .inNamespace(namespace)
                        .withLabel(LABEL, value)
                        .inform()) {
            await().atMost(HangCatcher.STEP).until(informer::isWatching);
            admin.resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("seen")
                            .withNamespace(namespace)
                            .addToLabels(LABEL, value)
                            .endMetadata()
                            .build())
                    .create();
            await().atMost(HangCatcher.STEP)
                    .until(() -> !informer.getStore().list().isEmpty());
            assertThat(informer.isWatching())
                    .as("still watching after the event")
                    .isTrue();
        }
    }

    @Test
    void aResetRequestGetsNoAnswerAndTheNextOneDoes() {
        String namespace = Namespaces.apply(admin, "fault-proxy-reset");
        try (ApiFaultProxy proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), "reset");
                KubernetesClient client = new KubernetesClientBuilder()
                        .withConfig(withoutRetries(proxy.clientConfig()))
                        .build()) {
            List<Runnable> requests = List.of(
                    () -> client.namespaces().withName(namespace).get(),
                    () -> client.configMaps().inNamespace(namespace).list(),
                    () -> client.resource(new ConfigMapBuilder()
                                    .withNewMetadata()
                                    .withName("after-reset")
                                    .withNamespace(namespace)
                                    .endMetadata()
                                    .build())
                            .createOr(c -> c.update()));
            for (Runnable request : requests) {
                proxy.inject(ApiFaultProxy.Fault.reset(1));
                assertThatThrownBy(request::run)
                        .as("a request whose connection was closed")
                        .isInstanceOf(KubernetesClientException.class)
                        .hasRootCauseInstanceOf(IOException.class);
                proxy.inject(null);
                request.run();
            }
            // the client may send a read once more on a fresh connection when a reused one closed unanswered
            assertThat(proxy.exchanges())
                    .filteredOn(ApiFaultProxy.Exchange::injected)
                    .extracting(ApiFaultProxy.Exchange::status)
                    .hasSizeGreaterThanOrEqualTo(requests.size())
                    .containsOnly(ApiFaultProxy.Fault.RESET);
        }
    }

    private static Config withoutRetries(Config config) {
        config.setRequestRetryBackoffLimit(0);
        return config;
    }
}
