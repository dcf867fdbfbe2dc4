package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;

/** Which components a Kyma's plan pairs with what stands under their names, and which it deletes. */
class ComponentActionsTest {
    @Test
    void eachPlannedComponentIsPairedWithWhatStandsUnderItsNameWhoeverControlsIt() {
        Kyma kyma = kyma(new Module("istio", "1.0"), new Module("ory", null));
        HelmComponent foreign = component("k-istio", controller("other", "other-uid"));
        ComponentActions actions =
                ComponentActions.decide(kyma, ModulePlan.of(kyma), Map.of("k-istio", foreign)::get, List.of());
        assertThat(actions.children())
                .extracting(c -> c.desired().getMetadata().getName(), ComponentActions.Child::existing)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("k-istio", foreign),
                        org.assertj.core.groups.Tuple.tuple("k-ory", null));
        assertThat(actions.mine(kyma)).as("only what it controls counts").isEmpty();
        assertThat(actions.delete()).isEmpty();
    }

    @Test
    void onlyUnplannedComponentsItControlsByUidAndNotYetGoingAreDeleted() {
        Kyma kyma = kyma(new Module("istio", null));
        HelmComponent removed = component("k-ory", controller("k", "kyma-uid"));
        HelmComponent going = component("k-kiali", controller("k", "kyma-uid"));
        going.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        HelmComponent ofTheOldKyma = component("k-old", controller("k", "old-uid"));
        HelmComponent onlyReferring = component("k-ref", controller("k", "kyma-uid"));
        onlyReferring.getMetadata().getOwnerReferences().get(0).setController(false);
        List<HelmComponent> all = new ArrayList<>(List.of(removed, going, ofTheOldKyma, onlyReferring));
        ComponentActions actions = ComponentActions.decide(kyma, ModulePlan.of(kyma), name -> null, all);
        assertThat(actions.delete()).containsExactly(removed);
    }

    @Test
    void anInvalidPlanPlansNothing() {
        Kyma kyma = kyma(new Module("istio", null));
        kyma.getMetadata().setName("k".repeat(64));
        assertThat(ComponentActions.decide(kyma, ModulePlan.of(kyma), name -> null, List.of())
                        .children())
                .isEmpty();
    }

    static Kyma kyma(Module... modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName("k")
                .withNamespace("ns")
                .withUid("kyma-uid")
                .withGeneration(1L)
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(List.of(modules));
        return kyma;
    }

    static OwnerReference controller(String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                .withKind("Kyma")
                .withName(name)
                .withUid(uid)
                .withController(true)
                .build();
    }

    static HelmComponent component(String name, OwnerReference... owners) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withCreationTimestamp("2025-12-31T00:00:00Z")
                .withOwnerReferences(owners)
                .build());
        component.setSpec(new HelmComponentSpec());
        return component;
    }
}
