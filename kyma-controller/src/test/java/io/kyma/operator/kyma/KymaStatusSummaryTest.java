package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.status.Conditions;

class KymaStatusSummaryTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final KymaStatusSummary summary = new KymaStatusSummary(new Conditions(Clock.fixed(T0, ZoneOffset.UTC)));

    @Test
    void countsEachStateAndIsProcessingUntilAllSucceed() {
        Kyma kyma = kyma("prod", "istio", "logging", "tracing", "kiali");
        List<HelmComponent> components = List.of(
                component("istio", ComponentState.SUCCESS),
                component("logging", ComponentState.FAILING),
                component("tracing", ComponentState.PENDING));
        KymaStatus status = summary.summarise(kyma, ModulePlan.of(kyma), components);

        assertThat(status.getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(status.getComponents().getTotal()).isEqualTo(4);
        assertThat(status.getComponents().getReady()).isEqualTo(1);
        assertThat(status.getComponents().getSuccess()).isEqualTo(1);
        assertThat(status.getComponents().getFailing()).isEqualTo(1);
        assertThat(status.getComponents().getPending()).isEqualTo(1);
        assertThat(status.getComponents().getStarted()).isZero();
        assertThat(status.getReadyComponents()).isEqualTo("1/4");
        assertThat(status.getObservedGeneration()).isEqualTo(3L);
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("ComponentsInstalling");
            assertThat(c.getMessage()).isEqualTo("1 of 4 components installed");
        });
    }

    @Test
    void isReadyWhenEveryPlannedComponentSucceeded() {
        Kyma kyma = kyma("prod", "istio", "ory");
        KymaStatus status = summary.summarise(
                kyma,
                ModulePlan.of(kyma),
                List.of(
                        component("istio", ComponentState.SUCCESS),
                        component("ory", ComponentState.SUCCESS),
                        component("removed", ComponentState.PENDING)));
        assertThat(status.getPhase()).isEqualTo(KymaPhase.READY);
        assertThat(status.getReadyComponents()).isEqualTo("2/2");
        assertThat(status.getConditions().get(0).getStatus()).isEqualTo("True");
        assertThat(status.getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void duplicateModulesAreAnErrorNamingThem() {
        Kyma kyma = kyma("prod", "istio", "logging", "istio", "ory", "logging");
        ModulePlan plan = ModulePlan.of(kyma);
        assertThat(plan.modules()).containsOnlyKeys("istio", "logging", "ory");
        assertThat(plan.duplicates()).containsExactly("istio", "logging");

        KymaStatus status = summary.summarise(kyma, plan, List.of());
        assertThat(status.getPhase()).isEqualTo(KymaPhase.ERROR);
        assertThat(status.getComponents().getTotal()).isEqualTo(3);
        assertThat(status.getConditions().get(0).getStatus()).isEqualTo("False");
        assertThat(status.getConditions().get(0).getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getConditions().get(0).getMessage()).isEqualTo("duplicate modules: istio, logging");
    }

    @Test
    void aNameTooLongForALabelIsAnError() {
        Kyma kyma = kyma("k".repeat(64), "istio");
        ModulePlan plan = ModulePlan.of(kyma);
        assertThat(plan.valid()).isFalse();
        assertThat(plan.modules()).isEmpty();
        assertThat(summary.summarise(kyma, plan, List.of())
                        .getConditions()
                        .get(0)
                        .getMessage())
                .contains("longer than 63 characters");
    }

    @Test
    void theReadyConditionKeepsItsTransitionTimeWhileItsStatusHolds() {
        Kyma kyma = kyma("prod", "istio");
        KymaStatus previous = new KymaStatus();
        previous.setConditions(List.of(new ConditionBuilder()
                .withType("Ready")
                .withStatus("False")
                .withReason("ComponentsInstalling")
                .withLastTransitionTime("2025-12-31T23:00:00Z")
                .build()));
        kyma.setStatus(previous);
        KymaStatus status =
                summary.summarise(kyma, ModulePlan.of(kyma), List.of(component("istio", ComponentState.STARTED)));
        assertThat(status.getConditions().get(0).getLastTransitionTime()).isEqualTo("2025-12-31T23:00:00Z");
    }

    @Test
    void deletingCountsTheComponentsLeftAndSaysWhatHoldsThem() {
        Kyma kyma = kyma("prod", "istio", "ory");
        kyma.setStatus(summary.summarise(
                kyma,
                ModulePlan.of(kyma),
                List.of(component("istio", ComponentState.SUCCESS), component("ory", ComponentState.SUCCESS))));
        HelmComponent left = component("istio", ComponentState.SUCCESS);
        KymaStatus status = summary.deleting(
                kyma, ModulePlan.of(kyma), List.of(left), new KymaStatusSummary.Problem("Deleting", "deleting 1"));
        assertThat(status.getPhase()).isEqualTo(KymaPhase.DELETING);
        assertThat(status.getReadyComponents())
                .as("the counts now, not as they were")
                .isEqualTo("1/2");
        assertThat(status.getConditions().get(0).getReason()).isEqualTo("Deleting");
        assertThat(status.getConditions().get(0).getMessage()).isEqualTo("deleting 1");
    }

    @Test
    void aDrainLabelOutsideTheHandOverOnTheKymaOrAComponentIsReportedBesideReady() {
        Kyma kyma = kyma("prod", "istio", "ory");
        HelmComponent ory = component("ory", ComponentState.SUCCESS);
        ory.getMetadata().setLabels(Map.of(Labels.SHARD_DRAIN, "paused"));
        KymaStatus status =
                summary.summarise(kyma, ModulePlan.of(kyma), List.of(component("istio", ComponentState.SUCCESS), ory));
        assertThat(status.getPhase()).as("ignored: it changes nothing else").isEqualTo(KymaPhase.READY);
        assertThat(status.getConditions()).extracting(c -> c.getType()).containsExactly("Ready", "ShardLabels");
        assertThat(status.getConditions().get(1).getMessage())
                .startsWith("HelmComponent prod-ory has kyma-project.io/shard-drain=paused: ignored");
        kyma.getMetadata().setLabels(Map.of(Labels.SHARD_DRAIN, "x"));
        kyma.setStatus(status);
        assertThat(summary.deleting(
                                kyma, ModulePlan.of(kyma), List.of(), new KymaStatusSummary.Problem("Deleting", "-"))
                        .getConditions()
                        .get(1)
                        .getMessage())
                .startsWith("Kyma prod has kyma-project.io/shard-drain=x: ignored");
        kyma.getMetadata().setLabels(Map.of());
        assertThat(summary.summarise(kyma, ModulePlan.of(kyma), List.of()).getConditions())
                .extracting(c -> c.getType())
                .containsExactly("Ready");
    }

    @Test
    void objectsMadeByHandNamingTheKymaAndAModuleNeitherCountNorMakeItReady() {
        Kyma kyma = kyma("prod", "istio");
        List<HelmComponent> components = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            HelmComponent extra = component("istio", ComponentState.SUCCESS);
            extra.getMetadata().setName("made-by-hand-" + i);
            components.add(extra);
        }
        components.add(component("istio", ComponentState.STARTED));
        KymaStatus status = summary.summarise(kyma, ModulePlan.of(kyma), components);
        assertThat(status.getComponents().getSuccess()).isZero();
        assertThat(status.getComponents().getStarted()).isEqualTo(1);
        assertThat(status.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    static Kyma kyma(String name, String... modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("default")
                .withGeneration(3L)
                .build());
        kyma.setSpec(new KymaSpec());
        List<Module> list = new ArrayList<>();
        for (String module : modules) {
            list.add(new Module(module, null));
        }
        kyma.getSpec().setModules(list);
        return kyma;
    }

    static HelmComponent component(String module, ComponentState state) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder().withName("prod-" + module).build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        component.setStatus(new HelmComponentStatus());
        component.getStatus().setState(state);
        return component;
    }
}
