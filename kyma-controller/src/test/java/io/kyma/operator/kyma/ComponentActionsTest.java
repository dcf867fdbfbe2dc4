package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;

/** What the Kyma controller does given what its cache holds, and what it makes of a name that is taken. */
class ComponentActionsTest {
    @Test
    void createsMissingComponentsAndLeavesMatchingOnesAlone() {
        Kyma kyma = kyma(new Module("istio", "1.0"), new Module("ory", null));
        ComponentActions actions =
                ComponentActions.decide(kyma, ModulePlan.of(kyma), List.of(component("k-istio", "istio", "1.0")));
        assertThat(actions.create()).extracting(c -> c.getMetadata().getName()).containsExactly("k-ory");
        assertThat(actions.specChanges()).isEmpty();
        assertThat(actions.delete()).isEmpty();
    }

    @Test
    void setsBackAVersionOrModuleEditedByHandAndFollowsAVersionChange() {
        Kyma kyma = kyma(new Module("istio", "2.0"), new Module("ory", null));
        HelmComponent edited = component("k-ory", "ory", "6.6.6");
        HelmComponent renamed = component("k-istio", "kiali", "2.0");
        ComponentActions actions = ComponentActions.decide(kyma, ModulePlan.of(kyma), List.of(edited, renamed));
        assertThat(actions.specChanges())
                .containsEntry(edited, new Module("ory", null))
                .containsEntry(renamed, new Module("istio", "2.0"));
        assertThat(actions.create()).isEmpty();
        assertThat(actions.delete()).isEmpty();
    }

    @Test
    void deletesComponentsNoModuleAsksForOnceAndNeverTouchesOnesBeingDeleted() {
        Kyma kyma = kyma(new Module("istio", null));
        HelmComponent removed = component("k-ory", "ory", null);
        HelmComponent going = component("k-istio", "istio", "0.1");
        going.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        HelmComponent alsoGoing = component("k-kiali", "kiali", null);
        alsoGoing.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        ComponentActions actions =
                ComponentActions.decide(kyma, ModulePlan.of(kyma), List.of(removed, going, alsoGoing));
        assertThat(actions.delete()).containsExactly(removed);
        assertThat(actions.specChanges())
                .as("a component on its way out is not edited")
                .isEmpty();
        assertThat(actions.create()).as("nor created again before it is gone").isEmpty();
    }

    @Test
    void anInvalidPlanCreatesNothing() {
        Kyma kyma = kyma(new Module("istio", null));
        kyma.getMetadata().setName("k".repeat(64));
        assertThat(ComponentActions.decide(kyma, ModulePlan.of(kyma), List.of()).create())
                .isEmpty();
    }

    @Test
    void aTakenNameIsOursForeignOrGone() {
        Kyma kyma = kyma(new Module("istio", null));
        HelmComponent ours = component("k-istio", "istio", null);
        assertThat(NameClash.classify(kyma, ours)).isEqualTo(NameClash.OURS);
        HelmComponent unlabelled = component("k-istio", "istio", null);
        unlabelled.getMetadata().setLabels(Map.of());
        assertThat(NameClash.classify(kyma, unlabelled)).isEqualTo(NameClash.OURS_UNLABELLED);
        HelmComponent anothers = component("k-istio", "istio", null);
        anothers.getMetadata().getOwnerReferences().get(0).setUid("other-uid");
        anothers.getMetadata().getOwnerReferences().get(0).setName("k-is");
        assertThat(NameClash.classify(kyma, anothers)).isEqualTo(NameClash.FOREIGN);
        assertThat(NameClash.holder(anothers)).isEqualTo("Kyma k-is");
        HelmComponent handMade = component("k-istio", "istio", null);
        handMade.getMetadata().setOwnerReferences(null);
        assertThat(NameClash.classify(kyma, handMade)).isEqualTo(NameClash.FOREIGN);
        assertThat(NameClash.holder(handMade)).isEqualTo("an object no Kyma owns");
        assertThat(NameClash.classify(kyma, null)).isEqualTo(NameClash.GONE);
    }

    @Test
    void aComponentMovedToAnotherShardThanItsKymasIsLabelledAgain() {
        Kyma kyma = kyma(new Module("istio", null));
        kyma.getMetadata().setLabels(new HashMap<>(Map.of(Labels.SHARD, "1")));
        HelmComponent moved = component("k-istio", "istio", null);
        moved.getMetadata().setLabels(new HashMap<>(moved.getMetadata().getLabels()));
        moved.getMetadata().getLabels().put(Labels.SHARD, "0");
        assertThat(NameClash.classify(kyma, moved)).isEqualTo(NameClash.OURS_UNLABELLED);
        moved.getMetadata().getLabels().put(Labels.SHARD, "1");
        assertThat(NameClash.classify(kyma, moved))
                .as("on its Kyma's shard, not yet cached")
                .isEqualTo(NameClash.OURS);
        kyma.getMetadata().setLabels(Map.of());
        moved.getMetadata().getLabels().put(Labels.SHARD, "7");
        assertThat(NameClash.classify(kyma, moved))
                .as("unsharded, a shard label means nothing")
                .isEqualTo(NameClash.OURS);
    }

    private static Kyma kyma(Module... modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName("k")
                .withNamespace("ns")
                .withUid("kyma-uid")
                .withGeneration(1L)
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(List.of(modules));
        return kyma;
    }

    private static HelmComponent component(String name, String module, String version) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withLabels(Map.of(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withKind("Kyma")
                        .withName("k")
                        .withUid("kyma-uid")
                        .withController(true)
                        .build())
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        component.getSpec().setVersion(version);
        return component;
    }
}
