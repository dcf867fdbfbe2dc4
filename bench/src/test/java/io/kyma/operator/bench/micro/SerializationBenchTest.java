package io.kyma.operator.bench.micro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.api.HelmComponent;

/** Each pair of benchmarks compares like with like: the same object comes out, but for the managedFields skipped. */
class SerializationBenchTest {
    private final SerializationBench bench = new SerializationBench();

    @Test
    void bothWatchEventReadersGiveTheSameComponent() {
        assertSame((HelmComponent) bench.watchEventFabric8(), (HelmComponent) bench.watchEventOnePass());
    }

    @Test
    void bothAnswerReadersGiveTheSameComponent() {
        assertSame(bench.statusAnswerFabric8(), bench.statusAnswerOnePass());
    }

    private static void assertSame(HelmComponent fabric8, HelmComponent onePass) {
        assertThat(fabric8.getMetadata().getManagedFields()).hasSize(2);
        assertThat(onePass.getMetadata().getManagedFields()).isEmpty();
        fabric8.getMetadata().setManagedFields(null);
        onePass.getMetadata().setManagedFields(null);
        assertThat(Serialization.asJson(onePass)).isEqualTo(Serialization.asJson(fabric8));
        assertThat(onePass.getStatus().getState()).isNotNull();
    }
}
