package io.kyma.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.utils.Serialization;

class ComponentCountsTest {

    @Test
    void aCountBeyondAnIntStoredBeforeTheBoundStillReads() {
        Kyma kyma = Serialization.unmarshal("""
                {"apiVersion": "inventory.kyma-project.io/v1alpha1", "kind": "Kyma",
                 "metadata": {"name": "k", "namespace": "ns"},
                 "status": {"components": {"total": 3000000000, "ready": -5}}}""", Kyma.class);
        assertThat(kyma.getStatus().getComponents().getTotal()).isEqualTo(3_000_000_000L);
        ComponentCounts bounded = kyma.getStatus().getComponents().bounded();
        assertThat(bounded.getTotal()).isEqualTo(100);
        assertThat(bounded.getReady()).isZero();
    }
}
