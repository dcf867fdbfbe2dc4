package io.kyma.operator.common;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

import static org.assertj.core.api.Assertions.assertThat;

class LeanCacheTest {

    @Test
    void dropsManagedFieldsAndKeepsEverythingElse() {
        ItemStore<ConfigMap> store = LeanCache.store();
        ConfigMap stored = put(store, object("a", "7"));

        assertThat(stored.getMetadata().getManagedFields()).isNull();
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(stored.getMetadata().getLabels()).containsExactly(Map.entry("app", "x"));
        assertThat(stored.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("owner-uid"));
        assertThat(stored.getData()).containsEntry("k", "v");
        assertThat(stored.getMetadata().getAdditionalProperties()).isNull();
    }

    @Test
    void emptyLabelsAndAnnotationsAreOneSharedEmptyMapThatReadersCanStillUse() {
        ItemStore<ConfigMap> store = LeanCache.store();
        ConfigMap first = put(store, object("a", "1"));
        ConfigMap second = put(store, new ConfigMapBuilder().withNewMetadata().withName("b").withNamespace("ns")
                .withResourceVersion("2").endMetadata().build());

        // JOSDK's InformerEventSource reads its annotation from every event's object without a null check
        assertThat(first.getMetadata().getAnnotations().get("javaoperatorsdk.io/previous")).isNull();
        assertThat(second.getMetadata().getLabels().get("app")).isNull();
        assertThat(second.getMetadata().getAnnotations()).isSameAs(first.getMetadata().getAnnotations())
                .isSameAs(second.getMetadata().getLabels()).isEqualTo(Map.of());
    }

    @Test
    void aLeanObjectStillSerialisesAsJosdkDoesToCloneIt() {
        ItemStore<ConfigMap> store = LeanCache.store();
        ConfigMap stored = put(store, object("a", "7"));
        String json = io.fabric8.kubernetes.client.utils.Serialization.asJson(stored);
        ConfigMap copy = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(json, ConfigMap.class);

        assertThat(copy.getMetadata().getLabels()).containsExactly(Map.entry("app", "x"));
        assertThat(copy.getMetadata().getName()).isEqualTo("a");
        assertThat(copy.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(copy.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("owner-uid"));
        assertThat(copy.getData()).containsEntry("k", "v");
    }

    @Test
    void objectsRepeatingAStringShareOneCopy() {
        ItemStore<ConfigMap> store = LeanCache.store();
        // new String(...) so that equal values start out as distinct objects, as they do off the wire
        ConfigMap first = put(store, object("a", "1"));
        ConfigMap second = put(store, object("b", "2"));

        assertThat(second.getMetadata().getNamespace()).isSameAs(first.getMetadata().getNamespace());
        assertThat(second.getMetadata().getLabels().get("app")).isSameAs(first.getMetadata().getLabels().get("app"));
        assertThat(second.getMetadata().getOwnerReferences().get(0).getUid())
                .isSameAs(first.getMetadata().getOwnerReferences().get(0).getUid());
    }

    @Test
    void aViewCutsTheObjectBeforeItIsStored() {
        ItemStore<ConfigMap> store = LeanCache.store(c -> {
            c.setData(null);
            return c;
        });
        assertThat(put(store, object("a", "1")).getData()).isNull();
    }

    @Test
    void theObjectTheInformerHandsToItsHandlersLosesItsManagedFieldsToo() {
        ItemStore<ConfigMap> store = LeanCache.store(c -> new ConfigMapBuilder().withMetadata(c.getMetadata()).build());
        ConfigMap event = object("a", "1");
        store.put(store.getKey(event), event);

        assertThat(event.getMetadata().getManagedFields()).isNull();
        assertThat(event.getData()).as("the rest of the event is the handlers'").containsEntry("k", "v");
    }

    @Test
    void customResourcesShareTheNamesTheirClassDetermines() {
        ItemStore<Widget> store = LeanCache.store();
        Widget first = put(store, widget("a"));
        Widget second = put(store, widget("b"));

        assertThat(second.getApiVersion()).isEqualTo("test.example.io/v1").isSameAs(first.getApiVersion());
        assertThat(second.getCRDName()).isEqualTo("widgets.test.example.io").isSameAs(first.getCRDName());
        assertThat(second.getPlural()).isSameAs(first.getPlural());
        assertThat(second.getSingular()).isSameAs(first.getSingular());
    }

    @Group("test.example.io")
    @Version("v1")
    static final class Widget extends CustomResource<Void, Void> implements Namespaced {
    }

    private static Widget widget(String name) {
        Widget widget = new Widget();
        widget.getMetadata().setName(name);
        widget.getMetadata().setNamespace("ns");
        return widget;
    }

    @Test
    void aViewThatFailsKeepsThePlainObjectAndCountsIt() {
        ItemStore<ConfigMap> store = LeanCache.store(c -> {
            throw new IllegalStateException("a model field was renamed");
        });
        long before = LeanCache.fallbacks();
        ConfigMap stored = put(store, object("a", "3"));
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(stored.getMetadata().getManagedFields()).as("still without managedFields").isNull();
        assertThat(LeanCache.fallbacks()).isEqualTo(before + 1);
    }

    private static <R extends io.fabric8.kubernetes.api.model.HasMetadata> R put(ItemStore<R> store, R object) {
        String key = store.getKey(object);
        store.put(key, object);
        return store.get(key);
    }

    private static ConfigMap object(String name, String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(new String("ns"))
                .withResourceVersion(resourceVersion)
                .withLabels(Map.of(new String("app"), new String("x")))
                .withOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(new String("v1"))
                        .withKind(new String("Owner")).withName(new String("o")).withUid(new String("owner-uid"))
                        .build()))
                .withManagedFields(new ManagedFieldsEntryBuilder().withManager("m").withOperation("Apply").build())
                .endMetadata().addToData("k", "v").build();
    }
}
