package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.status.Conditions;

/** Ready means every component acted on the spec the Kyma asks for now, and no problem stands in the way. */
class KymaReadinessTest {
    private final KymaStatusSummary summary =
            new KymaStatusSummary(new Conditions(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)));
    private final Kyma kyma = kyma();

    @Test
    void aSuccessfulComponentWhoseControllerHasNotSeenItsNewSpecIsNotReady() {
        KymaStatus status = summary.summarise(
                kyma, ModulePlan.of(kyma), List.of(component("istio", "2.0", 2L, 1L), component("ory", "2.0", 2L, 2L)));
        assertThat(status.getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(status.getReadyComponents()).isEqualTo("1/2");
    }

    @Test
    void aSuccessfulComponentOfTheOldVersionIsNotReady() {
        KymaStatus status = summary.summarise(
                kyma, ModulePlan.of(kyma), List.of(component("istio", "1.0", 1L, 1L), component("ory", "2.0", 1L, 1L)));
        assertThat(status.getReadyComponents()).isEqualTo("1/2");
    }

    @Test
    void everyComponentCaughtUpIsReady() {
        KymaStatus status = summary.summarise(
                kyma, ModulePlan.of(kyma), List.of(component("istio", "2.0", 3L, 3L), component("ory", "2.0", 2L, 2L)));
        assertThat(status.getPhase()).isEqualTo(KymaPhase.READY);
    }

    @Test
    void aProblemMakesTheKymaAnErrorWithItsReasonWhateverTheComponentsSay() {
        KymaStatus status = summary.summarise(
                kyma,
                ModulePlan.of(kyma),
                List.of(component("istio", "2.0", 3L, 3L), component("ory", "2.0", 2L, 2L)),
                List.of(new KymaStatusSummary.Problem("ComponentNameTaken", "HelmComponent k-ory belongs to Kyma x")));
        assertThat(status.getPhase()).isEqualTo(KymaPhase.ERROR);
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("ComponentNameTaken");
            assertThat(c.getMessage()).isEqualTo("HelmComponent k-ory belongs to Kyma x");
        });
    }

    private static Kyma kyma() {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName("k")
                .withNamespace("ns")
                .withGeneration(2L)
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(List.of(new Module("istio", "2.0"), new Module("ory", "2.0")));
        return kyma;
    }

    private static HelmComponent component(String module, String version, long generation, long observed) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName("k-" + module)
                .withGeneration(generation)
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        component.getSpec().setVersion(version);
        component.setStatus(new HelmComponentStatus());
        component.getStatus().setState(ComponentState.SUCCESS);
        component.getStatus().setObservedGeneration(observed);
        return component;
    }
}
