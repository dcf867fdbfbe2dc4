package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** What the Kyma controller does given what it reads: collisions, edits and errors, with a fake API server. */
class KymaReconcilerTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FakeComponentServer api = new FakeComponentServer();
    private final SharedStore<HelmComponent> store =
            synced(new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100));
    private final KymaReconciler reconciler = new KymaReconciler(clock, Duration.ofSeconds(5), store, -1, api);

    private static SharedStore<HelmComponent> synced(SharedStore<HelmComponent> store) {
        store.syncedWhen(() -> true);
        return store;
    }

    @Test
    void createsEveryMissingComponentAndSaysItIsInstalling() {
        Kyma kyma = kyma("k", "istio", "ory");
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.created).containsExactly("k-istio", "k-ory");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    @Test
    void whatIsKeptPerKymaGoesWhenItLeavesTheStoreEvenWithoutACleanup() {
        Kyma kyma = kyma("k", "istio", "ory");
        reconciler.changed(null, kyma);
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(reconciler.paced()).isEqualTo(1);
        // its finalizer taken off by hand and the Kyma deleted: no cleanup runs, the store's deletion is all there is
        reconciler.changed(kyma, null);
        assertThat(reconciler.paced()).isZero();
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        Kyma again = kyma("k", "istio", "ory");
        again.getMetadata().setUid("another-uid"); // deleted and made again, seen at a relist as a replacement
        reconciler.changed(kyma, again);
        assertThat(reconciler.paced()).isZero();
    }

    @Test
    void aKymaWhoseTurnHasNotComeIsPendingWithItsPlaceAndCreatesNothing() {
        KymaReconciler queueing = new KymaReconciler(clock, Duration.ofSeconds(5), store, 4, api);
        queueing.measureComponentQueue(ns -> 4);
        Kyma older = kyma("a", "istio"), kyma = kyma("b", "istio", "ory");
        inLine(queueing, older, kyma);

        UpdateControl<Kyma> control = queueing.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.created).isEmpty();
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PENDING);
        assertThat(api.lastStatus.getReadyComponents()).isEqualTo("0/2");
        assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo("Queued");
        assertThat(api.lastStatus.getConditions().get(0).getMessage())
                .startsWith(
                        "waiting for the operator's write budget: 1 Kyma of its namespace created before it is ahead in line (as of "
                                + "2026-01-01T00:00:00Z)");
        assertThat(control.getScheduleDelay())
                .as("the admission ticker wakes it, not a timer")
                .isEmpty();

        kyma.setStatus(api.lastStatus);
        int writes = api.statusWrites;
        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.statusWrites).as("the same place is not written again").isEqualTo(writes);

        queueing.measureComponentQueue(ns -> 0);
        queueing.reconcile(older, new FakeContext<>(older, List.of()));
        assertThat(api.created).containsExactly("a-istio");
        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.created).containsExactly("a-istio", "b-istio", "b-ory");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    @Test
    void aKymaWaitsBehindDueWorkWhileInLineOrReadyButNotOnceItsTurnHasCome() {
        KymaReconciler queueing = new KymaReconciler(clock, Duration.ofSeconds(5), store, 4, api);
        queueing.measureComponentQueue(ns -> 4);
        Kyma kyma = kyma("a", "istio");
        queueing.admission().changed(null, kyma);
        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        kyma.setStatus(api.lastStatus);
        assertThat(kyma.getStatus().getPhase()).isEqualTo(KymaPhase.PENDING);
        assertThat(queueing.canWait(kyma)).as("in line, no room").isTrue();

        queueing.measureComponentQueue(ns -> 0);
        assertThat(queueing.admission().due()).hasSize(1);
        assertThat(queueing.canWait(kyma))
                .as("its room is reserved: the reconcile that admits it")
                .isFalse();

        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        kyma.setStatus(api.lastStatus);
        assertThat(kyma.getStatus().getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(queueing.canWait(kyma)).isFalse();
        kyma.getStatus().setPhase(KymaPhase.READY);
        assertThat(queueing.canWait(kyma)).isTrue();
        kyma.getMetadata().setGeneration(2L);
        assertThat(queueing.canWait(kyma)).as("spec changed").isFalse();
    }

    @Test
    void aComponentMadeByHandNamingAWaitingKymaAsOwnerDoesNotLetItSkipTheLine() {
        KymaReconciler queueing = new KymaReconciler(clock, Duration.ofSeconds(5), store, 4, api);
        queueing.measureComponentQueue(ns -> 4);
        Kyma older = kyma("a", "istio"), kyma = kyma("b", "istio", "ory");
        inLine(queueing, older, kyma);
        // made by the tenant, with the managed-by label and the Kyma's own uid as its controller
        HelmComponent forged = component("b-istio", "istio", owner("b", "uid-b"));

        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of(forged)));
        assertThat(api.created).isEmpty();
        assertThat(api.lastStatus.getPhase()).as("still in line").isEqualTo(KymaPhase.PENDING);

        // a Kyma admitted before a restart has components and a status past Pending: it goes on at once
        kyma.setStatus(api.lastStatus);
        kyma.getStatus().setPhase(KymaPhase.PROCESSING);
        queueing.reconcile(kyma, new FakeContext<>(kyma, List.of(forged)));
        assertThat(api.created).containsExactly("b-ory");
    }

    @Test
    void aKymaWithoutModulesDoesNotWaitInLineAndHoldsNoOneUp() {
        KymaReconciler queueing = new KymaReconciler(clock, Duration.ofSeconds(5), store, 4, api);
        Kyma invalid = kyma("a"), next = kyma("b", "ory");
        invalid.getMetadata().setCreationTimestamp("2025-12-31T23:00:00Z");
        next.getMetadata().setCreationTimestamp("2025-12-31T23:00:01Z");
        queueing.admission().changed(null, invalid);
        queueing.admission().changed(null, next);
        queueing.reconcile(invalid, new FakeContext<>(invalid, List.of()));
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.READY);
        queueing.reconcile(next, new FakeContext<>(next, List.of()));
        assertThat(api.created).containsExactly("b-ory");
    }

    @Test
    void beforeTheComponentsAreListedItDecidesNothingAndLooksAgainSoon() {
        KymaReconciler early = new KymaReconciler(
                clock,
                Duration.ofSeconds(5),
                new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100),
                -1,
                api);
        Kyma kyma = kyma("k", "istio", "ory");
        UpdateControl<Kyma> control = early.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.created)
                .as("a component not yet listed is not a missing one")
                .isEmpty();
        assertThat(api.lastStatus).isNull();
        assertThat(control.getScheduleDelay()).contains(KymaReconciler.SYNC_RECHECK.toMillis());
    }

    @Test
    void aNameAnotherKymaHoldsIsAnErrorWithTheHolderAndARecheckNotARetryLoop() {
        Kyma kyma = kyma("a-b", "c", "ory");
        api.put(component("a-b-c", "b-c", owner("a", "uid-a")));
        UpdateControl<Kyma> control = reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.created).containsExactly("a-b-ory");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.ERROR);
        assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo("ComponentNameTaken");
        assertThat(api.lastStatus.getConditions().get(0).getMessage())
                .startsWith("HelmComponent a-b-c belongs to Kyma a");
        assertThat(control.getScheduleDelay()).contains(KymaReconciler.NAME_TAKEN_RECHECK.toMillis());
    }

    @Test
    void aNameTheStoreShowsUnderAnotherLiveKymaCostsNoWriteAtTheRecheck() {
        Kyma kyma = kyma("a-b", "c", "ory");
        HelmComponent holder = component("a-b-c", "b-c", owner("a", "uid-a"));
        holder.getMetadata().setNamespace(kyma.getMetadata().getNamespace());
        store.put(store.getKey(holder), holder);
        api.put(holder);
        api.liveKymas.put("a-b", "uid-a-b");
        api.liveKymas.put("a", "uid-a");
        UpdateControl<Kyma> control = reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.requests)
                .as("only the free name is tried; the held one costs a read of both Kymas, no write")
                .containsExactly("get kyma a-b", "get kyma a", "create a-b-ory");
        assertThat(api.lastStatus.getConditions().get(0).getMessage())
                .startsWith("HelmComponent a-b-c belongs to Kyma a");
        assertThat(control.getScheduleDelay()).contains(KymaReconciler.NAME_TAKEN_RECHECK.toMillis());
    }

    @Test
    void itsOwnComponentWithoutTheLabelIsLabelledAgainNotReportedAsTaken() {
        Kyma kyma = kyma("k", "ory");
        HelmComponent unlabelled = component("k-ory", "ory", owner("k", "uid-k"));
        unlabelled.getMetadata().setLabels(new HashMap<>());
        api.put(unlabelled);
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
        assertThat(api.restored).containsOnlyKeys("k-ory");
        assertThat(api.object("k-ory").getMetadata().getLabels())
                .containsEntry(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE)
                .containsEntry(Labels.KYMA, "k");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    @Test
    void aVersionChangeEditsTheComponentAndIsNotReadyBeforeItCaughtUp() {
        Kyma kyma = kyma("k", "ory");
        kyma.getSpec().getModules().get(0).setVersion("2.0");
        HelmComponent old = component("k-ory", "ory", owner("k", "uid-k"));
        old.getSpec().setVersion("1.0");
        old.setStatus(new HelmComponentStatus());
        old.getStatus().setState(ComponentState.SUCCESS);
        old.getStatus().setObservedGeneration(1L);
        reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(api.put(old))));
        assertThat(api.object("k-ory").getSpec().getVersion()).isEqualTo("2.0");
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
    }

    @Test
    void aRefusalThatOnlyASpecEditCanHelpIsAnErrorStatusAndNotRetried() {
        for (int code : new int[] {400, 413, 422}) {
            Kyma kyma = kyma("k", "ory");
            api.failCreates = new KubernetesClientException(new StatusBuilder()
                    .withCode(code)
                    .withReason("Invalid")
                    .withMessage("HelmComponent.kyma.io \"k-ory\" is invalid: spec.module: Too long")
                    .build());
            UpdateControl<Kyma> control = reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of()));
            assertThat(api.lastStatus.getPhase()).as("code %d", code).isEqualTo(KymaPhase.ERROR);
            assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo("Invalid");
            assertThat(api.lastStatus.getConditions().get(0).getMessage())
                    .startsWith("the API server answered " + code + ": HelmComponent.kyma.io \"k-ory\" is invalid");
            assertThat(control.getScheduleDelay()).isEmpty();
        }
    }

    @Test
    void aRefusalThatAClusterChangeCanHelpIsRetriedWithBackoffAndNamedInTheStatus() {
        // a quota, the operator's role, a webhook's denial or its timeout: raising, granting or fixing helps, no edit
        String[][] refusals = {
            {"403", "Forbidden", "helmcomponents \"k-ory\" is forbidden: exceeded quota: q, requested: count/x=1"},
            {"403", "Forbidden", "helmcomponents is forbidden: User cannot create resource"},
            {"403", "Forbidden", "admission webhook \"deny.example.com\" denied the request: not today"},
            {"500", "InternalError", "Internal error occurred: failed calling webhook \"hang.example.com\": timeout"},
            {"404", "NotFound", "namespaces \"ns\" not found"},
        };
        for (String[] refusal : refusals) {
            Kyma kyma = kyma("k", "ory");
            int code = Integer.parseInt(refusal[0]);
            api.failCreates = new KubernetesClientException(new StatusBuilder()
                    .withCode(code)
                    .withReason(refusal[1])
                    .withMessage(refusal[2])
                    .build());
            assertThatThrownBy(() -> reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of())))
                    .as(refusal[2])
                    .isSameAs(api.failCreates);
            assertThat(api.lastStatus.getPhase()).as(refusal[2]).isEqualTo(KymaPhase.PROCESSING);
            assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo(refusal[1]);
            assertThat(api.lastStatus.getConditions().get(0).getMessage())
                    .isEqualTo("the API server answered " + code + ": " + refusal[2] + "; retrying with backoff");
        }
    }

    @Test
    void aTransientFailureIsThrownForTheSharedBackoffAndTheStatusSaysItIsRetried() {
        Kyma kyma = kyma("k", "ory");
        api.failCreates = new KubernetesClientException(new StatusBuilder()
                .withCode(503)
                .withReason("ServiceUnavailable")
                .withMessage("etcd is busy")
                .build());
        assertThatThrownBy(() -> reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of())))
                .isSameAs(api.failCreates);
        assertThat(api.lastStatus.getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(api.lastStatus.getConditions().get(0).getReason()).isEqualTo("ServiceUnavailable");
        assertThat(api.lastStatus.getConditions().get(0).getMessage())
                .isEqualTo("the API server answered 503: etcd is busy; retrying with backoff");
    }

    @Test
    void aConflictIsRetriedOnFreshDataWithoutAStatus() {
        Kyma kyma = kyma("k", "ory");
        kyma.getSpec().getModules().get(0).setVersion("2.0");
        HelmComponent cached = api.put(component("k-ory", "ory", owner("k", "uid-k")));
        api.object("k-ory").getMetadata().setResourceVersion("999"); // changed since the cache read it
        assertThatThrownBy(() -> reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of(cached))))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(api.lastStatus).isNull();
    }

    @Test
    void aRemovedModulesComponentIsDeleted() {
        Kyma kyma = kyma("k", "istio");
        reconciler.reconcile(
                kyma,
                new FakeContext<>(
                        kyma,
                        List.of(
                                api.put(component("k-istio", "istio", owner("k", "uid-k"))),
                                api.put(component("k-ory", "ory", owner("k", "uid-k"))))));
        assertThat(api.deleted).containsExactly("k-ory");
        assertThat(api.created).isEmpty();
    }

    /** Puts the Kymas in line in this order, a second apart. */
    private static void inLine(KymaReconciler queueing, Kyma... kymas) {
        Instant created = Instant.parse("2025-12-31T23:00:00Z");
        for (Kyma kyma : kymas) {
            kyma.getMetadata().setCreationTimestamp(created.toString());
            queueing.admission().changed(null, kyma);
            created = created.plusSeconds(1);
        }
    }

    private static Kyma kyma(String name, String... modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withUid("uid-" + name)
                .withGeneration(1L)
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec()
                .setModules(Arrays.stream(modules).map(m -> new Module(m, null)).toList());
        return kyma;
    }

    private static OwnerReference owner(String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                .withKind("Kyma")
                .withName(name)
                .withUid(uid)
                .withController(true)
                .build();
    }

    private static HelmComponent component(String name, String module, OwnerReference owner) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withGeneration(1L)
                .withLabels(new HashMap<>(Map.of(
                        Labels.MANAGED_BY,
                        Labels.MANAGED_BY_VALUE,
                        Labels.KYMA,
                        owner.getName(),
                        Labels.MODULE,
                        module)))
                .withOwnerReferences(owner)
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setKyma(owner.getName());
        component.getSpec().setModule(module);
        return component;
    }
}
