package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.kyma.operator.manager.metrics.InformerTraffic.Call;
import io.kyma.operator.manager.metrics.InformerTraffic.Kind;
import io.kyma.operator.testing.MutableClock;

class InformerTrafficTest {
    private static final String COMPONENTS =
            "https://10.0.0.1:6443/apis/inventory.kyma-project.io/v1alpha1/" + "namespaces/kyma-system/helmcomponents";

    @Test
    void anInformersFirstPageIsAListAndItsWatchIsAWatch() {
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "?limit=500")))
                .contains(new Call(Kind.LIST, "helmcomponents"));
        assertThat(InformerTraffic.classify(
                        "GET",
                        URI.create(COMPONENTS
                                + "?allowWatchBookmarks=true&resourceVersion=123&timeoutSeconds=600&watch=true")))
                .contains(new Call(Kind.WATCH, "helmcomponents"));
        assertThat(InformerTraffic.classify(
                        "GET", URI.create("https://h/apis/inventory.kyma-project.io/v1alpha1/kymas?watch=1")))
                .as("all namespaces")
                .contains(new Call(Kind.WATCH, "kymas"));
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces/a/secrets")))
                .contains(new Call(Kind.LIST, "secrets"));
    }

    @Test
    void aWatchThatEndedBeforeTheClientWouldHaveEndedItCountsAsEndedEarly() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        OperatorMetrics metrics = new OperatorMetrics();
        InformerTraffic traffic = new InformerTraffic(metrics, clock);
        String watch = COMPONENTS + "?allowWatchBookmarks=true&labelSelector=kyma-project.io%%2Fshard%%3D1"
                + "&resourceVersion=%s&timeoutSeconds=600&watch=true";
        String otherInformer = COMPONENTS + "?allowWatchBookmarks=true&labelSelector=%%21kyma-project.io%%2Fshard"
                + "&resourceVersion=%s&timeoutSeconds=600&watch=true";

        start(traffic, watch.formatted(1));
        start(traffic, otherInformer.formatted(1));
        clock.advance(Duration.ofSeconds(20));
        start(traffic, watch.formatted(2)); // the first ended after 20 s: closed by someone else
        clock.advance(InformerTraffic.CLIENT_ENDS_WATCHES_AFTER.plusSeconds(30));
        start(traffic, watch.formatted(3)); // ended after five and a half minutes: the client's own end
        start(traffic, otherInformer.formatted(2)); // another informer's: its own time, not the first's

        assertThat(metrics.watchStarts("helmcomponents").count()).isEqualTo(5);
        assertThat(metrics.watchesEndedEarly("helmcomponents").count()).isEqualTo(1);
        assertThat(InformerTraffic.informer(URI.create(watch.formatted(7))))
                .as("one informer across versions")
                .isEqualTo(InformerTraffic.informer(URI.create(watch.formatted(8))))
                .isNotEqualTo(InformerTraffic.informer(URI.create(otherInformer.formatted(7))));
    }

    private static void start(InformerTraffic traffic, String uri) {
        traffic.before(null, new StandardHttpRequest.Builder().uri(uri).build(), null);
    }

    @Test
    void laterPagesGetsWritesAndNamespacesAreNotCounted() {
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "?continue=abc&limit=500")))
                .isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "/k1-istio")))
                .isEmpty();
        assertThat(InformerTraffic.classify("PATCH", URI.create(COMPONENTS + "/k1-istio/status")))
                .isEmpty();
        assertThat(InformerTraffic.classify("POST", URI.create(COMPONENTS))).isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces/kyma-system")))
                .isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces")))
                .isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/version")))
                .isEmpty();
    }
}
