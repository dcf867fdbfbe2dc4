package io.kyma.operator.kyma;

import static io.kyma.operator.kyma.ComponentActionsTest.component;
import static io.kyma.operator.kyma.ComponentActionsTest.controller;
import static io.kyma.operator.kyma.ComponentActionsTest.kyma;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;
import io.kyma.operator.kyma.Ownership.Kind;

/** Who controls a component as a Kyma sees it, and how its controller reference is set. */
class OwnershipTest {
    private final Kyma kyma = kyma(new Module("istio", null));

    @Test
    void onlyTheControllerReferenceSaysWhoseAComponentIs() {
        assertThat(kind(component("k-istio", controller("k", "kyma-uid")))).isEqualTo(Kind.MINE);
        OwnerReference plain = controller("other", "other-uid");
        plain.setController(false);
        assertThat(kind(component("k-istio", plain, controller("k", "kyma-uid"))))
                .as("another Kyma's plain reference listed first")
                .isEqualTo(Kind.MINE);
        assertThat(kind(component("k-istio", plain)))
                .as("no controller at all: an orphan")
                .isEqualTo(Kind.ADOPTABLE);
        assertThat(kind(component("k-istio"))).isEqualTo(Kind.ADOPTABLE);
        assertThat(kind(component("k-istio", controller("other", "other-uid"))))
                .as("another Kyma: adopted only if the API server has no such Kyma")
                .isEqualTo(Kind.OTHER_KYMA);
        OwnerReference configMap = controller("k", "cm-uid");
        configMap.setKind("ConfigMap");
        configMap.setApiVersion("v1");
        assertThat(kind(component("k-istio", configMap)))
                .as("an object of another kind with the Kyma's name")
                .isEqualTo(Kind.FOREIGN);
    }

    @Test
    void aComponentControlledByAKymaOfAnotherUidIsAnotherKymasWhateverItsAge() {
        for (String made : List.of("2025-12-31T23:59:59Z", "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z")) {
            HelmComponent component = component("k-istio", controller("k", "other-uid"));
            component.getMetadata().setCreationTimestamp(made);
            assertThat(kind(component)).as("made at %s", made).isEqualTo(Kind.OTHER_KYMA);
            assertThat(Ownership.of(kyma, component).holder()).isEqualTo("Kyma k (uid other-uid)");
        }
    }

    @Test
    void settingTheControllerKeepsEveryOtherReferenceInItsPlace() {
        OwnerReference mine = ChildComponents.controllerReference(kyma);
        OwnerReference a = plain("a"), b = plain("b");
        OwnerReference stale = controller("k", "old-uid");
        OwnerReference sameUidPlain = controller("k", "kyma-uid");
        sameUidPlain.setController(false);
        assertThat(ChildDrift.owners(null, mine)).containsExactly(mine);
        assertThat(ChildDrift.owners(List.of(a, b), mine)).containsExactly(a, b, mine);
        assertThat(ChildDrift.owners(List.of(a, stale, b), mine)).containsExactly(a, mine, b);
        assertThat(ChildDrift.owners(List.of(sameUidPlain, a, stale), mine))
                .as("one reference per uid")
                .containsExactly(mine, a);
    }

    private Kind kind(HelmComponent component) {
        return Ownership.of(kyma, component).kind();
    }

    private static OwnerReference plain(String name) {
        return new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("ConfigMap")
                .withName(name)
                .withUid("uid-" + name)
                .build();
    }
}
