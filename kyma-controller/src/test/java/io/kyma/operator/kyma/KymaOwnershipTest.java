package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** The cases of issue 55's ownership and deletion principles, each as the Kyma controller meets it. */
class KymaOwnershipTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T00:00:00Z"));
    private final FakeComponentServer api = new FakeComponentServer();
    private final SharedStore<HelmComponent> store =
            new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
    private final KymaReconciler reconciler = new KymaReconciler(clock, Duration.ofSeconds(5), store, -1, api);

    KymaOwnershipTest() {
        store.syncedWhen(() -> true);
    }

    @Test
    void aComponentWhoseOwnerReferencesWereRemovedByHandIsAdoptedAndDeletedWithItsKyma() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        for (boolean cached : new boolean[] {false, true}) {
            HelmComponent released = ChildComponents.desired(kyma, new Module("ory", null));
            released.getMetadata().setOwnerReferences(null);
            released.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
            HelmComponent held = api.put(released);
            List<HelmComponent> secondary = new ArrayList<>();
            if (cached) {
                store.put(store.getKey(held), held);
            }
            reconciler.reconcile(kyma, new FakeContext<>(kyma, secondary));
            assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
            assertThat(Ownership.controller(api.object("k-ory"))).isEqualTo(ChildComponents.controllerReference(kyma));

            Kyma deleting = TestKymas.kyma("k", "uid-k", "ory");
            deleting.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
            reconciler.cleanup(deleting, new FakeContext<>(deleting, List.of(api.object("k-ory"))));
            assertThat(api.objects).as("cached: %s", cached).isEmpty();
            store.remove(store.getKey(held));
        }
    }

    @Test
    void aPlainReferenceToAnotherKymaListedFirstNeitherDeletesTheComponentNorLetsItGo() {
        Kyma owner = TestKymas.kyma("k", "uid-k", "ory"), other = TestKymas.kyma("j", "uid-j", "istio");
        HelmComponent component = ChildComponents.desired(owner, new Module("ory", null));
        component.getMetadata().getOwnerReferences().add(0, plain(other));
        HelmComponent held = api.put(component);
        // the other Kyma's reconcile and cleanup see it among what names it (the store's first-reference index)
        reconciler.reconcile(other, new FakeContext<>(other, List.of(held)));
        Kyma otherDeleting = TestKymas.kyma("j", "uid-j", "istio");
        otherDeleting.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        reconciler.cleanup(otherDeleting, new FakeContext<>(otherDeleting, List.of(held)));
        assertThat(api.deleted).isEmpty();
        assertThat(api.requests).noneMatch(r -> r.endsWith(" k-ory"));

        reconciler.reconcile(owner, new FakeContext<>(owner, List.of(held)));
        assertThat(api.requests).as("its own, as it should be").noneMatch(r -> r.endsWith(" k-ory"));
    }

    @Test
    void editsOfSpecKymaAndOfTheKymaAndModuleLabelsAreSetBackAndNothingElse() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        String[][] edits = {{"spec", null}, {"spec", "x"}, {Labels.KYMA, "x"}, {Labels.MODULE, "x"}, {Labels.KYMA, null}
        };
        for (String[] edit : edits) {
            HelmComponent component = ChildComponents.desired(kyma, new Module("ory", null));
            component.getMetadata().getLabels().put("team", "a");
            component.getMetadata().setAnnotations(Map.of("note", "mine"));
            if (edit[0].equals("spec")) {
                component.getSpec().setKyma(edit[1]);
            } else if (edit[1] == null) {
                component.getMetadata().getLabels().remove(edit[0]);
            } else {
                component.getMetadata().getLabels().put(edit[0], edit[1]);
            }
            HelmComponent held = api.put(component);
            reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(held)));
            HelmComponent after = api.object("k-ory");
            assertThat(after.getSpec().getKyma()).as("%s=%s", edit[0], edit[1]).isEqualTo("k");
            assertThat(after.getMetadata().getLabels())
                    .as("%s=%s", edit[0], edit[1])
                    .containsEntry(Labels.KYMA, "k")
                    .containsEntry(Labels.MODULE, "ory")
                    .containsEntry("team", "a");
            assertThat(after.getMetadata().getAnnotations()).containsEntry("note", "mine");
            assertThat(api.restored.get("k-ory").owners())
                    .as("the owners are not written when only labels or spec differ")
                    .isNull();
        }
    }

    @Test
    void aKymaDeletedAndCreatedAgainUnderTheSameNameTakesOverTheOldComponents() {
        Kyma old = TestKymas.kyma("k", "uid-old", "ory");
        HelmComponent component = ChildComponents.desired(old, new Module("ory", null));
        component.getMetadata().setCreationTimestamp("2025-12-31T00:00:00Z");
        HelmComponent held = api.put(component);
        Kyma again = TestKymas.kyma("k", "uid-new", "ory");
        api.liveKymas.put("k", "uid-new");
        reconciler.reconcile(again, new FakeContext<>(again, List.of(held)));
        assertThat(Ownership.controller(api.object("k-ory")).getUid()).isEqualTo("uid-new");
        assertThat(api.object("k-ory").getMetadata().getOwnerReferences()).hasSize(1);
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    @Test
    void aComponentAnotherLiveObjectControlsIsNamedInTheStatusAndNeverWritten() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        Kyma later = TestKymas.kyma("k", "uid-later", "ory");
        HelmComponent ofLater = ChildComponents.desired(later, new Module("ory", null));
        HelmComponent held = api.put(ofLater);
        api.liveKymas.put("k", "uid-later"); // the API server's Kyma k is the later one: this copy is stale
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(held)));
        assertThat(api.requests).as("read the live Kyma, wrote nothing").containsExactly("get kyma k");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.ERROR);
        assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo("ComponentNameTaken");
        assertThat(api.lastStatus.getConditions().get(0).getMessage())
                .isEqualTo("HelmComponent k-ory belongs to Kyma k (uid uid-later); rename this Kyma or drop module ory"
                        + " (checked again every 10s)");
    }

    @Test
    void aComponentOfAKymaDeletedAndCreatedAgainUnderTheSameNameIsAdoptedWhateverItsTimestamps() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        HelmComponent ofGone = ChildComponents.desired(TestKymas.kyma("k", "uid-gone", "ory"), new Module("ory", null));
        ofGone.getMetadata().setCreationTimestamp(kyma.getMetadata().getCreationTimestamp()); // the same second
        HelmComponent held = api.put(ofGone);
        api.liveKymas.put("k", "uid-k");
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(held)));
        assertThat(Ownership.controller(api.object("k-ory")).getUid()).isEqualTo("uid-k");
        assertThat(api.lastStatus.getPhase()).isNotEqualTo(KymaPhase.ERROR);
    }

    @Test
    void aComponentControlledByAKymaTheApiServerDoesNotHaveIsAdoptedAndByALiveOneNever() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory", "istio");
        api.liveKymas.put("k", "uid-k");
        api.liveKymas.put("gone", null);
        api.liveKymas.put("j", "uid-j");
        HelmComponent ory = ChildComponents.desired(kyma, new Module("ory", null));
        ory.getMetadata()
                .setOwnerReferences(List.of(ChildComponents.controllerReference(TestKymas.kyma("gone", "uid-x"))));
        HelmComponent istio = ChildComponents.desired(kyma, new Module("istio", null));
        istio.getMetadata()
                .setOwnerReferences(List.of(ChildComponents.controllerReference(TestKymas.kyma("j", "uid-j"))));
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(api.put(ory), api.put(istio))));
        assertThat(Ownership.controller(api.object("k-ory")).getUid())
                .as("its Kyma is gone")
                .isEqualTo("uid-k");
        assertThat(Ownership.controller(api.object("k-istio")).getUid())
                .as("Kyma j is live")
                .isEqualTo("uid-j");
        assertThat(api.lastStatus.getConditions().get(0).getMessage()).contains("belongs to Kyma j (uid uid-j)");
    }

    @Test
    void aWantedComponentHeldInDeletionBySomeoneElsesFinalizerIsNamedWhileTheKymaWaitsToCreateItAgain() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        HelmComponent going = ChildComponents.desired(kyma, new Module("ory", null));
        going.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        going.getMetadata().setFinalizers(List.of("example.com/hold"));
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(api.put(going))));
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(reason()).isEqualTo("ComponentFinalizers");
        assertThat(message()).startsWith("waiting for HelmComponent ns/k-ory: finalizer example.com/hold");

        going.getMetadata().setFinalizers(List.of()); // none left: gone as the cache catches up
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(api.put(going))));
        assertThat(reason()).isNotEqualTo("ComponentFinalizers");
    }

    @Test
    void aCreateTheClusterRefusesDoesNotKeepTheOtherComponentsFromTheirDesiredState() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "istio", "ory");
        api.liveKymas.put("k", "uid-k");
        HelmComponent ofGone = ChildComponents.desired(TestKymas.kyma("k", "uid-gone", "ory"), new Module("ory", null));
        HelmComponent held = api.put(ofGone);
        api.failCreates = new KubernetesClientException(new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage("admission webhook \"deny.example.com\" denied the request")
                .build());
        assertThatThrownBy(() -> reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(held))))
                .as("retried with backoff")
                .isSameAs(api.failCreates);
        assertThat(Ownership.controller(api.object("k-ory")).getUid())
                .as("adopted though istio's create was refused first")
                .isEqualTo("uid-k");
        assertThat(message()).contains("deny.example.com");
    }

    @Test
    void aDeletionHeldBySomeoneElsesFinalizerNamesTheComponentAndTheFinalizerWithCurrentCounts() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "istio", "ory");
        kyma.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        HelmComponent held = ChildComponents.desired(kyma, new Module("istio", null));
        held.getMetadata().setFinalizers(List.of("example.com/hold"));
        HelmComponent gone = ChildComponents.desired(kyma, new Module("ory", null)); // deleted meanwhile
        HelmComponent istio = api.put(held);

        reconciler.cleanup(kyma, new FakeContext<>(kyma, List.of(istio, gone)));
        assertThat(api.deleted).as("one already gone is done").containsExactly("k-istio");
        assertThat(reason()).isEqualTo("Deleting");
        assertThat(message()).isEqualTo("deleting 2 components: HelmComponent ns/k-istio; HelmComponent ns/k-ory");

        kyma.setStatus(api.lastStatus);
        reconciler.cleanup(kyma, new FakeContext<>(kyma, List.of(api.object("k-istio"))));
        assertThat(reason()).isEqualTo("ComponentFinalizers");
        assertThat(message()).isEqualTo("waiting for HelmComponent ns/k-istio: finalizer example.com/hold");
        assertThat(api.lastStatus.getComponents().getTotal()).isEqualTo(2);

        kyma.setStatus(api.lastStatus);
        int writes = api.statusWrites;
        reconciler.cleanup(kyma, new FakeContext<>(kyma, List.of(api.object("k-istio"))));
        assertThat(api.statusWrites).as("nothing new: not written again").isEqualTo(writes);
    }

    @Test
    void aDeletionTheApiServerRefusesSaysWhatItAnswered() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        kyma.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        HelmComponent ory = api.put(ChildComponents.desired(kyma, new Module("ory", null)));
        api.failDeletes = new KubernetesClientException(new StatusBuilder()
                .withCode(500)
                .withReason("InternalError")
                .withMessage("admission webhook \"deny.example.com\" failed")
                .build());
        assertThatThrownBy(() -> reconciler.cleanup(kyma, new FakeContext<>(kyma, List.of(ory))))
                .isSameAs(api.failDeletes);
        assertThat(reason()).isEqualTo("InternalError");
        assertThat(message()).contains("admission webhook \"deny.example.com\" failed");
    }

    @Test
    void aComponentOfAnotherOwnerIsNotDeletedWithTheKyma() {
        Kyma kyma = TestKymas.kyma("k", "uid-k", "ory");
        kyma.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        HelmComponent anothers =
                ChildComponents.desired(TestKymas.kyma("k", "uid-later", "ory"), new Module("ory", null));
        HelmComponent held = api.put(anothers);
        assertThat(reconciler
                        .cleanup(kyma, new FakeContext<>(kyma, List.of(held)))
                        .isRemoveFinalizer())
                .isTrue();
        assertThat(api.objects).containsKey("k-ory");
    }

    /** What stands under a component's name when the Kyma's delete, decided on an older copy, reaches the server. */
    enum Replacement {
        GONE,
        ORPHAN,
        CONFIG_MAP,
        ANOTHER_KYMA,
        THIS_KYMA_LATER_VERSION,
        THIS_KYMA_BEING_DELETED
    }

    @Test
    void aComponentReplacedOrReownedAfterTheKymaReadItIsDeletedOnlyIfTheKymaStillControlsIt() {
        int checked = 0;
        for (Replacement replacement : Replacement.values()) {
            for (boolean kymaDeleted : new boolean[] {false, true}) {
                FakeComponentServer server = new FakeComponentServer();
                KymaReconciler fresh = new KymaReconciler(clock, Duration.ofSeconds(5), store, -1, server);
                Kyma kyma = kymaDeleted
                        ? TestKymas.kyma("k", "uid-k", "istio", "ory")
                        : TestKymas.kyma("k", "uid-k", "istio");
                if (kymaDeleted) {
                    kyma.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
                }
                HelmComponent stale = server.put(ChildComponents.desired(kyma, new Module("ory", null)));
                server.objects.remove("k-ory");
                HelmComponent now = ChildComponents.desired(kyma, new Module("ory", null));
                now.getMetadata().setUid("uid-replacement");
                switch (replacement) {
                    case GONE -> now = null;
                    case ORPHAN -> now.getMetadata().setOwnerReferences(null);
                    case CONFIG_MAP ->
                        now.getMetadata()
                                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                                        .withApiVersion("v1")
                                        .withKind("ConfigMap")
                                        .withName("k")
                                        .withUid("uid-cm")
                                        .withController(true)
                                        .build()));
                    case ANOTHER_KYMA ->
                        now.getMetadata()
                                .setOwnerReferences(
                                        List.of(ChildComponents.controllerReference(TestKymas.kyma("j", "uid-j"))));
                    case THIS_KYMA_LATER_VERSION ->
                        now.getMetadata().setUid(stale.getMetadata().getUid());
                    case THIS_KYMA_BEING_DELETED -> {
                        now.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
                        now.getMetadata().setFinalizers(List.of("example.com/hold"));
                    }
                }
                String before = now == null ? null : server.json(server.put(now));
                String description = replacement + (kymaDeleted ? ", Kyma deleted" : ", module removed");
                if (kymaDeleted) {
                    fresh.cleanup(kyma, new FakeContext<>(kyma, List.of(stale)));
                } else {
                    fresh.reconcile(kyma, new FakeContext<>(kyma, List.of(stale)));
                }
                boolean stillItsOwn = replacement == Replacement.THIS_KYMA_LATER_VERSION;
                assertThat(server.deleted.contains("k-ory"))
                        .as("deleted only if the Kyma controls what stands there now: %s", description)
                        .isEqualTo(stillItsOwn);
                if (!stillItsOwn && now != null) {
                    assertThat(server.json(server.object("k-ory")))
                            .as("left as it was: %s", description)
                            .isEqualTo(before);
                }
                checked++;
            }
        }
        assertThat(checked).isEqualTo(12);
    }

    private String reason() {
        return ready(api.lastStatus).get(0);
    }

    private String message() {
        return ready(api.lastStatus).get(1);
    }

    private static List<String> ready(KymaStatus status) {
        return status.getConditions().stream()
                .filter(c -> c.getType().equals("Ready"))
                .map(c -> List.of(c.getReason(), c.getMessage()))
                .findFirst()
                .orElseThrow();
    }

    private static OwnerReference plain(Kyma kyma) {
        return new OwnerReferenceBuilder()
                .withApiVersion(kyma.getApiVersion())
                .withKind("Kyma")
                .withName(kyma.getMetadata().getName())
                .withUid(kyma.getMetadata().getUid())
                .build();
    }
}
