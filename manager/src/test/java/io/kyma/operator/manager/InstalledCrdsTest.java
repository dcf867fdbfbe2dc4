package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;

class InstalledCrdsTest {
    private static CustomResourceDefinition shipped(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> kind) {
        return InstalledCrds.shipped(kind).orElseThrow();
    }

    private static CustomResourceDefinition copy(CustomResourceDefinition crd) {
        return Serialization.clone(crd);
    }

    private static Map<String, JSONSchemaProps> status(CustomResourceDefinition crd) {
        return crd.getSpec()
                .getVersions()
                .get(0)
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status")
                .getProperties();
    }

    @Test
    void theJarShipsTheCrdOfEachKindAndEachIsCurrentAgainstItself() {
        for (var kind : java.util.List.of(Kyma.class, Run.class, io.kyma.operator.api.HelmComponent.class)) {
            CustomResourceDefinition crd = shipped(kind);
            assertThat(InstalledCrds.lacks(crd, copy(crd), "v1alpha1"))
                    .as(kind.getSimpleName())
                    .isEmpty();
            assertThat(InstalledCrds.Fields.of(crd.getSpec()
                                    .getVersions()
                                    .get(0)
                                    .getSchema()
                                    .getOpenAPIV3Schema())
                            .declared())
                    .containsKeys("spec", "status", "status.conditions[].reason")
                    .doesNotContainKeys("apiVersion", "kind", "metadata");
        }
    }

    @Test
    void anOlderCrdIsNamedWithEveryFieldItLacks() {
        CustomResourceDefinition older = copy(shipped(Kyma.class));
        status(older).get("conditions").getItems().getSchema().getProperties().remove("observedGeneration");
        status(older).remove("observedGeneration");
        assertThat(InstalledCrds.lacks(shipped(Kyma.class), older, "v1alpha1"))
                .contains("the fields status.conditions[].observedGeneration, status.observedGeneration");
    }

    @Test
    void aCrdWithoutTheStatusSubresourceOrTheVersionIsNamed() {
        CustomResourceDefinition noStatus = copy(shipped(Run.class));
        noStatus.getSpec().getVersions().get(0).setSubresources(null);
        assertThat(InstalledCrds.lacks(shipped(Run.class), noStatus, "v1alpha1"))
                .contains("the status subresource");
        CustomResourceDefinition otherVersion = copy(shipped(Run.class));
        otherVersion.getSpec().getVersions().get(0).setName("v1alpha0");
        assertThat(InstalledCrds.lacks(shipped(Run.class), otherVersion, "v1alpha1"))
                .contains("the served version v1alpha1");
    }

    @Test
    void anEnumWithoutAValueTheOperatorWritesOrAnotherTypeIsNamed() {
        CustomResourceDefinition older = copy(shipped(Run.class));
        JSONSchemaProps phase = status(older).get("phase");
        phase.setEnum(phase.getEnum().stream()
                .filter(v -> !v.asText().equals("Running"))
                .toList());
        status(older).get("observedGeneration").setType("string");
        assertThat(InstalledCrds.lacks(shipped(Run.class), older, "v1alpha1"))
                .hasValueSatisfying(what -> assertThat(what)
                        .contains("status.phase (the enum values Running)")
                        .contains("status.observedGeneration (type string, not integer)"));
    }

    @Test
    void aNewerOrOpenerCrdPasses() {
        CustomResourceDefinition newer = copy(shipped(Kyma.class));
        status(newer).put("somethingNew", new JSONSchemaProps());
        assertThat(InstalledCrds.lacks(shipped(Kyma.class), newer, "v1alpha1")).isEmpty();

        CustomResourceDefinition open = copy(shipped(Kyma.class));
        JSONSchemaProps status = open.getSpec()
                .getVersions()
                .get(0)
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status");
        status.setProperties(null);
        status.setXKubernetesPreserveUnknownFields(true);
        assertThat(InstalledCrds.lacks(shipped(Kyma.class), open, "v1alpha1")).isEmpty();
    }
}
