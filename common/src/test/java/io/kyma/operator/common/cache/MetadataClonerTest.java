package io.kyma.operator.common.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.javaoperatorsdk.operator.api.config.Cloner;

class MetadataClonerTest {
    @Group("test.kyma-project.io")
    @Version("v1")
    public static final class Widget extends CustomResource<Map<String, String>, Map<String, String>> {}

    private final Cloner json = new Cloner() {
        private final KubernetesSerialization serialization = new KubernetesSerialization();

        @Override
        public <R extends HasMetadata> R clone(R object) {
            return serialization.clone(object);
        }
    };
    private final MetadataCloner cloner = new MetadataCloner(Map.of(Widget.class, Widget::new), json);

    @Test
    void theCopyHasItsOwnMetadataEvenWhereTheCacheSharesImmutableListsAndTheSameSpecAndStatus() {
        Widget cached = new Widget();
        cached.setMetadata(new ObjectMetaBuilder()
                .withName("w")
                .withNamespace("ns")
                .withResourceVersion("7")
                .addToLabels("a", "b")
                .build());
        cached.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer")); // as the lean cache keeps them
        cached.setSpec(Map.of("module", "ory"));
        cached.setStatus(Map.of("state", "success"));

        Widget copy = cloner.clone(cached);
        assertThat(copy).isNotSameAs(cached);
        assertThat(copy.getMetadata()).isNotSameAs(cached.getMetadata()).isEqualTo(cached.getMetadata());
        assertThat(copy.getSpec()).isSameAs(cached.getSpec());
        assertThat(copy.getStatus()).isSameAs(cached.getStatus());

        copy.removeFinalizer("kyma-project.io/finalizer");
        copy.getMetadata().getLabels().put("c", "d");
        copy.getMetadata().setResourceVersion(null);
        assertThat(cached.getMetadata().getFinalizers()).containsExactly("kyma-project.io/finalizer");
        assertThat(cached.getMetadata().getLabels()).containsOnlyKeys("a");
        assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("7");
    }

    @Test
    void otherKindsAreCopiedWhole() {
        ConfigMap map = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("c")
                .endMetadata()
                .addToData("k", "v")
                .build();
        ConfigMap copy = cloner.clone(map);
        assertThat(copy).isEqualTo(map).isNotSameAs(map);
        assertThat(copy.getData()).isNotSameAs(map.getData());
    }
}
