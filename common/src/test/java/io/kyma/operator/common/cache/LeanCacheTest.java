package io.kyma.operator.common.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

class LeanCacheTest {
    private final ItemStore<Widget> store = LeanCache.store(new WidgetForm());

    @Test
    void everyFieldAReaderUsesComesBackAsItWasAndManagedFieldsGo() {
        Widget original = widget("a", "7");
        original.getMetadata().setGeneration(3L);
        original.getMetadata().setFinalizers(List.of("example.io/cleanup"));
        original.getMetadata().setAnnotations(Map.of("note", "x"));
        String expected = Serialization.asJson(withoutManagedFields(widget("a", "7"), 3L));

        Widget stored = put(original);

        assertThat(stored.getMetadata().getManagedFields()).isNull();
        assertThat(Serialization.asJson(stored)).isEqualTo(expected);
        assertThat(stored.getSpec().size).isEqualTo("large");
        assertThat(stored.getStatus()).isEqualTo("ok");
        assertThat(stored.getApiVersion()).isEqualTo("test.example.io/v1");
        assertThat(stored.getKind()).isEqualTo("Widget");
    }

    private static Widget withoutManagedFields(Widget widget, long generation) {
        widget.getMetadata().setManagedFields(null);
        widget.getMetadata().setGeneration(generation);
        widget.getMetadata().setFinalizers(List.of("example.io/cleanup"));
        widget.getMetadata().setAnnotations(Map.of());
        return widget;
    }

    @Test
    void aLongFinalizerListKeepsItsLengthItsFirstNamesAndTheKindsOwnEntryInTheirPlaces() {
        Widget original = widget("a", "7");
        List<String> finalizers = new ArrayList<>();
        IntStream.range(0, 10_000).forEach(i -> finalizers.add("tenant.example/f-" + i));
        String own = "widgets.test.example.io/finalizer";
        finalizers.add(5_000, own);
        original.getMetadata().setFinalizers(finalizers);

        List<String> kept = put(original).getMetadata().getFinalizers();

        assertThat(kept).hasSize(10_001).isInstanceOf(LeanCache.Finalizers.class);
        assertThat(kept.indexOf(own)).isEqualTo(5_000);
        for (int i = 0; i < LeanCache.NAMED_FINALIZERS; i++) {
            assertThat(kept.get(i)).as("named, for a status").isEqualTo("tenant.example/f-" + i);
        }
        assertThat(kept.get(LeanCache.NAMED_FINALIZERS)).isEqualTo(LeanCache.Finalizers.OTHER);
        assertThat(new ArrayList<>(kept).remove(own))
                .as("as JOSDK takes it off a copy")
                .isTrue();
        Widget few = widget("b", "7");
        few.getMetadata().setFinalizers(List.of("a.example/x", own));
        assertThat(put(few).getMetadata().getFinalizers()).containsExactly("a.example/x", own);
    }

    @Test
    void listsMadeToShareOneHashCodeAreNotComparedWithEveryOtherOne() {
        // "Aa" and "BB" have one hash code: 12 such pairs make 4096 strings, and lists of them, with one hash code
        List<List<String>> colliding = new ArrayList<>();
        for (int bits = 0; bits < 4096; bits++) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 12; i++) {
                text.append((bits >> i & 1) == 0 ? "Aa" : "BB");
            }
            colliding.add(List.of("istio", text.toString()));
        }
        LeanCache.Canonical pool = new LeanCache.Canonical();
        List<Object> held = new ArrayList<>(); // strongly held, as the cached objects hold them
        for (List<String> list : colliding) {
            held.add(pool.of(new LeanCache.Pooled<>(list.toArray())));
        }
        assertThat(pool.size())
                .as("shared until a look-up would compare more than a few")
                .isLessThanOrEqualTo(LeanCache.Canonical.MOST_COMPARED + 1);
        assertThat(held).hasSize(4096).allSatisfy(l -> assertThat((List<?>) l).hasSize(2));
        Object other = pool.of(new LeanCache.Pooled<>(new Object[] {"istio", "1.2.3"}));
        assertThat(pool.of(new LeanCache.Pooled<>(new Object[] {"istio", "1.2.3"})))
                .as("other lists still shared")
                .isSameAs(other);
    }

    @Test
    void onlyTheOwnerReferencesReadHereAreKept() {
        Widget original = widget("a", "7");
        List<OwnerReference> owners = new ArrayList<>();
        IntStream.range(0, 1000)
                .forEach(i -> owners.add(new OwnerReferenceBuilder()
                        .withApiVersion("other.example/v1")
                        .withKind("Thing")
                        .withName("t-" + i)
                        .withUid("u-" + i)
                        .build()));
        IntStream.range(0, 10)
                .forEach(i -> owners.add(new OwnerReferenceBuilder()
                        .withApiVersion("test.example.io/v1")
                        .withKind("Widget")
                        .withName("w-" + i)
                        .withUid("w-" + i)
                        .build()));
        owners.add(new OwnerReferenceBuilder()
                .withApiVersion("apps/v1")
                .withKind("Deployment")
                .withName("d")
                .withUid("d")
                .withController(true)
                .build());
        original.getMetadata().setOwnerReferences(owners);

        assertThat(put(original).getMetadata().getOwnerReferences())
                .extracting(o -> o.getName())
                .containsExactly("w-0", "w-1", "w-2", "w-3", "d");
    }

    @Test
    void aStoredObjectSerialisesAndReadsBackAsJosdkDoesToCloneIt() {
        Widget copy = Serialization.unmarshal(Serialization.asJson(put(widget("a", "7"))), Widget.class);

        assertThat(copy.getMetadata().getName()).isEqualTo("a");
        assertThat(copy.getMetadata().getUid()).isEqualTo("0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
        assertThat(copy.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(copy.getMetadata().getLabels()).containsExactly(Map.entry("kyma-project.io/kyma", "x"));
        assertThat(copy.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("owner-uid"));
        assertThat(copy.getSpec().size).isEqualTo("large");
    }

    @Test
    void uidsAndVersionsThatAreNotTheUsualNumbersAreKeptAsText() {
        Widget odd = widget("a", "007");
        odd.getMetadata().setUid("not-a-uuid");
        Widget stored = put(odd);
        assertThat(stored.getMetadata().getUid()).isEqualTo("not-a-uuid");
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("007");

        Widget bare = widget("b", null);
        bare.getMetadata().setUid(null);
        bare.getMetadata().setOwnerReferences(null);
        bare.getMetadata().setLabels(null);
        Widget storedBare = put(bare);
        assertThat(storedBare.getMetadata().getUid()).isNull();
        assertThat(storedBare.getMetadata().getResourceVersion()).isNull();
        assertThat(storedBare.getMetadata().getGeneration()).isNull();
        assertThat(storedBare.getMetadata().getOwnerReferences()).isEmpty();
    }

    @Test
    void aDeletionInProgressIsKept() {
        Widget deleting = widget("a", "9");
        deleting.getMetadata().setDeletionTimestamp("2026-11-23T01:00:00Z");
        deleting.getMetadata().setDeletionGracePeriodSeconds(0L);
        Widget stored = put(deleting);
        assertThat(stored.getMetadata().getDeletionTimestamp()).isEqualTo("2026-11-23T01:00:00Z");
        assertThat(stored.getMetadata().getDeletionGracePeriodSeconds()).isZero();
    }

    @Test
    void emptyLabelsAndAnnotationsStayReadable() {
        Widget bare = widget("a", "1");
        bare.getMetadata().setLabels(null);
        bare.getMetadata().setAnnotations(Map.of());
        Widget stored = put(bare);

        // JOSDK's InformerEventSource reads its annotation from every event's object without a null check
        assertThat(stored.getMetadata().getAnnotations().get("javaoperatorsdk.io/previous"))
                .isNull();
        assertThat(stored.getMetadata().getLabels().get("kyma-project.io/kyma")).isNull();
        assertThat(stored.getMetadata().getFinalizers()).isEmpty();
    }

    @Test
    void objectsRepeatingStringsListsAndMapsShareOneCopy() {
        Widget first = put(widget("a", "1"));
        Widget second = put(widget("b", "2"));

        assertThat(second.getMetadata().getNamespace())
                .isSameAs(first.getMetadata().getNamespace());
        assertThat(second.getMetadata().getLabels().keySet().iterator().next())
                .isSameAs(first.getMetadata().getLabels().keySet().iterator().next());
        assertThat(second.getMetadata().getLabels().get("kyma-project.io/kyma"))
                .isSameAs(first.getMetadata().getLabels().get("kyma-project.io/kyma"));
        assertThat(second.getMetadata().getOwnerReferences())
                .isSameAs(first.getMetadata().getOwnerReferences());
        assertThat(second.getMetadata().getCreationTimestamp())
                .isSameAs(first.getMetadata().getCreationTimestamp());
        assertThat(second.getSpec().size).as("the form's strings").isSameAs(first.getSpec().size);
    }

    @Test
    void theInformerIsAnsweredTheKeyTheStoreHoldsSoThatEachObjectHasOneKeyString() {
        Widget first = widget("a", "1");
        String key = store.getKey(first);
        store.put(key, first);
        Widget next = widget("a", "2");
        assertThat(store.getKey(next)).isEqualTo("ns/a").isSameAs(key);
        assertThat(store.getKey(widget("b", "1"))).isEqualTo("ns/b");

        String name = store.get(key).getMetadata().getName();
        store.put(store.getKey(next), next);
        assertThat(store.get(key).getMetadata().getName())
                .as("one name string for every version, as JOSDK keeps it")
                .isSameAs(name);
        assertThat(next.getMetadata().getName())
                .as("the event's object, which JOSDK makes its ResourceID of")
                .isSameAs(name);
    }

    @Test
    void labelsAndAnnotationsNobodyHereReadsAreNotKept() {
        Widget loaded = widget("a", "1");
        Map<String, String> labels = new LinkedHashMap<>(
                Map.of("kyma-project.io/kyma", "k", "app.kubernetes.io/managed-by", "kyma-operator", "team", "a"));
        for (int i = 0; i < 1000; i++) {
            labels.put("tenant.example/l" + i, "v");
            labels.put("kyma-project.io/l" + i, "v"); // under the operator's prefix, but no key it reads
        }
        loaded.getMetadata().setLabels(labels);
        loaded.getMetadata()
                .setAnnotations(Map.of(
                        "tenant.example/blob",
                        "x".repeat(250_000),
                        "javaoperatorsdk.io/previous",
                        "y".repeat(250_000)));
        Widget stored = put(loaded);
        assertThat(stored.getMetadata().getLabels())
                .containsOnlyKeys("kyma-project.io/kyma", "app.kubernetes.io/managed-by");
        assertThat(stored.getMetadata().getAnnotations()).isEmpty();
        Widget answer = LeanCache.trim(loaded);
        assertThat(answer.getMetadata().getLabels())
                .containsOnlyKeys("kyma-project.io/kyma", "app.kubernetes.io/managed-by");
        assertThat(answer.getMetadata().getAnnotations())
                .as("a write answer kept for a while")
                .isEmpty();
    }

    @Test
    void labelsReadLikeAnyMap() {
        Widget labelled = widget("a", "1");
        labelled.getMetadata()
                .setLabels(new LinkedHashMap<>(Map.of("kyma-project.io/kyma", "1", "kyma-project.io/module", "2")));
        Map<String, String> labels = put(labelled).getMetadata().getLabels();

        assertThat(labels)
                .isEqualTo(Map.of("kyma-project.io/kyma", "1", "kyma-project.io/module", "2"))
                .hasSize(2)
                .containsKey("kyma-project.io/module")
                .doesNotContainKey("three");
        assertThat(labels.get("three")).isNull();
        assertThat(labels.get(null)).isNull();
        assertThat(labels.hashCode())
                .isEqualTo(Map.of("kyma-project.io/kyma", "1", "kyma-project.io/module", "2")
                        .hashCode());
    }

    @Test
    void sharedPartsCannotBeChangedThroughOneObject() {
        Widget stored = put(widget("a", "1"));
        Assertions.assertThatThrownBy(() -> stored.getMetadata().getLabels().put("k", "v"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void keysValuesAndRemovalWorkAcrossNamespacesAndForClusterScopedKeys() {
        put(widget("a", "1"));
        Widget other = widget("a", "2");
        other.getMetadata().setNamespace("other");
        put(other);

        assertThat(store.keySet()).containsExactlyInAnyOrder("ns/a", "other/a");
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.values().map(w -> w.getMetadata().getResourceVersion()))
                .containsExactlyInAnyOrder("1", "2");
        assertThat(store.remove("other/a").getMetadata().getResourceVersion()).isEqualTo("2");
        assertThat(store.get("other/a")).isNull();
        assertThat(store.remove("none/a")).isNull();
        assertThat(store.put("ns/a", widget("a", "3")).getMetadata().getResourceVersion())
                .as("put answers the version it replaced")
                .isEqualTo("1");
    }

    @Test
    void aFormThatFailsKeepsThePlainObjectAndCountsIt() {
        ItemStore<Widget> failing = LeanCache.store(new WidgetForm() {
            @Override
            public void shareStrings(Widget widget) {
                throw new IllegalStateException("a model changed");
            }
        });
        long before = LeanCache.fallbacks();
        Widget original = widget("a", "3");
        failing.put(failing.getKey(original), original);

        Widget stored = failing.get("ns/a");
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(stored.getMetadata().getManagedFields())
                .as("still without managedFields")
                .isNull();
        assertThat(LeanCache.fallbacks()).isEqualTo(before + 1);
    }

    @Test
    void aLeanCopyIsWhatTheStoreWouldHandOut() {
        Widget copy = LeanCache.lean(new WidgetForm(), widget("a", "4"));
        Widget stored = put(widget("b", "5"));
        assertThat(copy.getMetadata().getManagedFields()).isNull();
        assertThat(copy.getMetadata().getResourceVersion()).isEqualTo("4");
        assertThat(copy.getMetadata().getOwnerReferences())
                .isSameAs(stored.getMetadata().getOwnerReferences());
        assertThat(copy.getSpec().size).isSameAs(stored.getSpec().size);
    }

    @Test
    void trimmingAWriteAnswerDropsItsManagedFields() {
        Widget answer = LeanCache.trim(widget("a", "1"));
        assertThat(answer.getMetadata().getManagedFields()).isNull();
        assertThat(answer.getMetadata().getLabels()).containsEntry("kyma-project.io/kyma", "x");
    }

    private Widget put(Widget widget) {
        String key = store.getKey(widget);
        store.put(key, widget);
        return store.get(key);
    }

    /** As off the wire: equal values are distinct string objects. */
    private static Widget widget(String name, String resourceVersion) {
        Widget widget = new Widget();
        widget.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(new String("ns"))
                .withUid("0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
                .withResourceVersion(resourceVersion)
                .withCreationTimestamp(new String("2026-11-23T00:00:00Z"))
                .withLabels(Map.of(new String("kyma-project.io/kyma"), new String("x")))
                .withOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion(new String("v1"))
                        .withKind(new String("Owner"))
                        .withName(new String("o"))
                        .withUid(new String("owner-uid"))
                        .withController(true)
                        .build()))
                .withManagedFields(new ManagedFieldsEntryBuilder()
                        .withManager("m")
                        .withOperation("Apply")
                        .build())
                .build());
        WidgetSpec spec = new WidgetSpec();
        spec.size = new String("large");
        widget.setSpec(spec);
        widget.setStatus(new String("ok"));
        return widget;
    }

    @Group("test.example.io")
    @Version("v1")
    public static class Widget extends CustomResource<WidgetSpec, String> implements Namespaced {}

    public static class WidgetSpec {
        public String size;
    }

    static class WidgetForm implements LeanCache.Form<Widget> {
        @Override
        public Widget empty() {
            return new Widget();
        }

        @Override
        public void shareStrings(Widget widget) {
            widget.getSpec().size = LeanCache.share(widget.getSpec().size);
        }
    }
}
