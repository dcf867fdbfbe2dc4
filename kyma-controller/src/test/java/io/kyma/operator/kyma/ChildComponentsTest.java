package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;

class ChildComponentsTest {
    @Test
    void aComponentCarriesItsKymasShardSoTheSameReplicaReconcilesBoth() {
        HelmComponent component =
                ChildComponents.desired(kyma(Map.of(Labels.SHARD, "2", "team", "a")), new Module("istio", "1.0"));
        assertThat(component.getMetadata().getLabels())
                .containsEntry(Labels.SHARD, "2")
                .containsEntry(Labels.KYMA, "k")
                .containsEntry(Labels.MODULE, "istio")
                .containsEntry(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE)
                .doesNotContainKey("team");
    }

    @Test
    void unshardedKymasGiveUnshardedComponents() {
        HelmComponent component = ChildComponents.desired(kyma(null), new Module("istio", null));
        assertThat(component.getMetadata().getLabels())
                .doesNotContainKey(Labels.SHARD)
                .hasSize(3);
    }

    private static Kyma kyma(Map<String, String> labels) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("ns")
                .withName("k")
                .withUid("u")
                .withLabels(labels)
                .build());
        return kyma;
    }
}
