package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.metrics.InformerTraffic.Call;
import io.kyma.operator.manager.metrics.InformerTraffic.Kind;

class InformerTrafficTest {
    private static final String COMPONENTS = "https://10.0.0.1:6443/apis/inventory.kyma-project.io/v1alpha1/"
            + "namespaces/kyma-system/helmcomponents";

    @Test
    void anInformersFirstPageIsAListAndItsWatchIsAWatch() {
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "?limit=500")))
                .contains(new Call(Kind.LIST, "helmcomponents"));
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS
                + "?allowWatchBookmarks=true&resourceVersion=123&timeoutSeconds=600&watch=true")))
                .contains(new Call(Kind.WATCH, "helmcomponents"));
        assertThat(InformerTraffic.classify("GET", URI.create(
                "https://h/apis/inventory.kyma-project.io/v1alpha1/kymas?watch=1")))
                .as("all namespaces").contains(new Call(Kind.WATCH, "kymas"));
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces/a/secrets")))
                .contains(new Call(Kind.LIST, "secrets"));
    }

    @Test
    void laterPagesGetsWritesAndNamespacesAreNotCounted() {
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "?continue=abc&limit=500"))).isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create(COMPONENTS + "/k1-istio"))).isEmpty();
        assertThat(InformerTraffic.classify("PATCH", URI.create(COMPONENTS + "/k1-istio/status"))).isEmpty();
        assertThat(InformerTraffic.classify("POST", URI.create(COMPONENTS))).isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces/kyma-system"))).isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/api/v1/namespaces"))).isEmpty();
        assertThat(InformerTraffic.classify("GET", URI.create("https://h/version"))).isEmpty();
    }
}
