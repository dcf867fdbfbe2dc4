package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.MutableClock;

/** The Kyma controller's components, read from the shared HelmComponent store, with its own creates seen at once. */
class OwnedComponentsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SharedStore<HelmComponent> store =
            new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
    /** Hands the events over at once, so that each test sees them in order on its own thread. */
    private final OwnedComponents owned =
            new OwnedComponents(store, clock, Duration.ofSeconds(5), (delay, task) -> task.run());

    private final List<String> events = new ArrayList<>();

    OwnedComponentsTest() {
        owned.setEventHandler((Event e) ->
                events.add(e.getRelatedCustomResourceID().getNamespace().orElse("") + "/"
                        + e.getRelatedCustomResourceID().getName()));
        owned.start();
    }

    private static HelmComponent component(String name, String kyma, String resourceVersion, boolean managed) {
        Map<String, String> labels = new HashMap<>();
        if (managed) {
            labels.put(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
        }
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withNamespace("ns")
                .withName(name)
                .withResourceVersion(resourceVersion)
                .withLabels(labels)
                .addNewOwnerReference()
                .withKind("Kyma")
                .withName(kyma)
                .withUid("uid-" + kyma)
                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                .withController(true)
                .endOwnerReference()
                .build());
        return component;
    }

    private static Kyma kyma(String name) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("ns")
                .withName(name)
                .withUid("uid-" + name)
                .build());
        return kyma;
    }

    private List<String> seen(String kyma) {
        return owned.getSecondaryResources(kyma(kyma)).stream()
                .map(c -> c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion())
                .sorted()
                .toList();
    }

    @Test
    void everyChangeOfAManagedComponentIsAnEventForItsKyma() {
        store.put("ns/k-ory", component("k-ory", "k", "1", true));
        store.put("ns/k-ory", component("k-ory", "k", "2", true));
        store.put("ns/j-ory", component("j-ory", "j", "3", true));
        store.remove("ns/k-ory");

        assertThat(events).containsExactly("ns/k", "ns/k", "ns/j", "ns/k");
        assertThat(seen("k")).isEmpty();
        assertThat(seen("j")).containsExactly("j-ory@3");
    }

    @Test
    void aComponentIsTheKymasThatControlsItWithOrWithoutTheManagedByLabel() {
        store.put("ns/k-ory", component("k-ory", "k", "1", false));
        assertThat(events).containsExactly("ns/k");
        assertThat(seen("k")).containsExactly("k-ory@1");
    }

    @Test
    void aPlainReferenceToAnotherKymaListedFirstMakesItNeitherThatKymasNorHidesItFromItsController() {
        HelmComponent component = component("k-ory", "k", "1", true);
        component
                .getMetadata()
                .getOwnerReferences()
                .add(
                        0,
                        new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                                .withKind("Kyma")
                                .withName("other")
                                .withUid("uid-other")
                                .build());
        store.put("ns/k-ory", component);
        assertThat(seen("k")).containsExactly("k-ory@1");
        assertThat(seen("other")).isEmpty();
        assertThat(events).containsExactly("ns/k");
    }

    @Test
    void aComponentIsFoundByItsControllersUidWhateverNameOrKindItsReferenceWasEditedTo() {
        // the edits a tenant may make to the controller reference while keeping its uid and controller: true
        List<java.util.function.Consumer<io.fabric8.kubernetes.api.model.OwnerReference>> edits = List.of(
                ref -> {},
                ref -> ref.setName("x"),
                ref -> ref.setName("j"),
                ref -> ref.setKind("Foo"),
                ref -> ref.setApiVersion("v1"),
                ref -> {
                    ref.setName("j");
                    ref.setKind("ConfigMap");
                    ref.setApiVersion("v1");
                });
        int checked = 0;
        for (int e = 0; e < edits.size(); e++) {
            for (boolean created : new boolean[] {false, true}) {
                for (String namespace : List.of("ns", "elsewhere")) {
                    SharedStore<HelmComponent> informer =
                            new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
                    OwnedComponents index =
                            new OwnedComponents(informer, clock, Duration.ZERO, (delay, task) -> task.run());
                    HelmComponent component = component("k-ory", "k", "5", e % 2 == 0);
                    component.getMetadata().setNamespace(namespace);
                    edits.get(e)
                            .accept(component.getMetadata().getOwnerReferences().get(0));
                    if (created) {
                        index.created(component);
                    } else {
                        informer.put(namespace + "/k-ory", component);
                    }
                    String description =
                            "edit " + e + (created ? ", created" : ", from the informer") + ", in " + namespace;
                    boolean sameNamespace = namespace.equals("ns");
                    assertThat(index.getSecondaryResources(kyma("k")))
                            .as("the uid's Kyma of the namespace: %s", description)
                            .hasSize(sameNamespace ? 1 : 0);
                    for (String other : List.of("x", "j")) {
                        assertThat(index.getSecondaryResources(kyma(other)))
                                .as("not a Kyma only named: %s", description)
                                .isEmpty();
                    }
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(24);
    }

    @Test
    void aComponentWithoutAControllerIsToldToTheKymaItsLabelNamesWhichMayAdoptIt() {
        HelmComponent madeByHand = component("k-ory", "k", "1", true);
        madeByHand.getMetadata().setOwnerReferences(null);
        madeByHand.getMetadata().getLabels().put(Labels.KYMA, "k");
        store.put("ns/k-ory", madeByHand);
        assertThat(events).containsExactly("ns/k");
        store.put("ns/k-ory", component("k-ory", "k", "1", true));
        HelmComponent released = component("k-ory", "k", "2", true);
        released.getMetadata().setOwnerReferences(null);
        released.getMetadata().getLabels().put(Labels.KYMA, "k");
        store.put("ns/k-ory", released);
        assertThat(events).containsExactly("ns/k", "ns/k", "ns/k");
        assertThat(seen("k")).as("not its until adopted").isEmpty();
        assertThat(owned.named("ns", "k-ory").getMetadata().getResourceVersion())
                .isEqualTo("2");
    }

    @Test
    void aComponentMovedToAnotherKymaTellsBoth() {
        store.put("ns/x", component("x", "a", "1", true));
        store.put("ns/x", component("x", "b", "2", true));
        assertThat(events).containsExactly("ns/a", "ns/a", "ns/b");
    }

    @Test
    void itsOwnCreateIsSeenAtOnceUntilTheInformerHasThatVersion() {
        owned.created(component("k-ory", "k", "5", true));
        assertThat(seen("k")).containsExactly("k-ory@5");
        assertThat(seen("j")).isEmpty();

        store.put("ns/k-ory", component("k-ory", "k", "4", true));
        assertThat(seen("k"))
                .as("the informer is behind: the create's answer wins")
                .containsExactly("k-ory@5");
        assertThat(owned.pendingCreates()).isEqualTo(1);

        store.put("ns/k-ory", component("k-ory", "k", "5", true));
        assertThat(owned.pendingCreates()).isZero();
        assertThat(seen("k")).containsExactly("k-ory@5");
    }

    @Test
    void aCreateTheInformerNeverSawIsForgottenAfterItsTime() {
        owned.created(component("k-ory", "k", "5", true));
        clock.advance(OwnedComponents.CREATED_TTL.plus(Duration.ofSeconds(1)));
        assertThat(seen("k")).isEmpty();
        owned.created(component("k-istio", "k", "6", true));
        assertThat(owned.pendingCreates()).as("the expired one went").isEqualTo(1);
    }

    @Test
    void aKymaSeesOnlyItsOwnCreatesAndTheyLeaveOnceTheInformerHasThem() {
        owned.created(component("a-ory", "a", "5", true));
        owned.created(component("b-ory", "b", "6", true));
        assertThat(seen("a")).containsExactly("a-ory@5");
        assertThat(seen("b")).containsExactly("b-ory@6");

        store.put("ns/a-ory", component("a-ory", "a", "5", true));
        store.put("ns/b-ory", component("b-ory", "b", "7", true));
        assertThat(owned.pendingCreates()).isZero();
        assertThat(seen("a")).containsExactly("a-ory@5");
        assertThat(seen("b")).containsExactly("b-ory@7");
    }

    @Test
    void aDeletedComponentIsNoLongerPending() {
        owned.created(component("k-ory", "k", "5", true));
        store.put("ns/k-ory", component("k-ory", "k", "5", true));
        owned.created(component("k-ory", "k", "7", true));
        store.remove("ns/k-ory");
        assertThat(owned.pendingCreates()).isZero();
        assertThat(seen("k")).isEmpty();
    }

    @Test
    void theInformersThreadOnlyQueuesAnOwnerAndChangesWhileItIsQueuedAreOneEvent() {
        List<Runnable> queued = new ArrayList<>();
        OwnedComponents later =
                new OwnedComponents(store, clock, Duration.ofSeconds(5), (delay, task) -> queued.add(task));
        List<String> got = new ArrayList<>();
        later.setEventHandler(
                (Event e) -> got.add(e.getRelatedCustomResourceID().getName()));
        later.start();
        store.put("ns/k-ory", component("k-ory", "k", "1", true));
        store.put("ns/k-ory", component("k-ory", "k", "2", true));
        store.put("ns/k-istio", component("k-istio", "k", "3", true));
        assertThat(got).as("nothing handed to JOSDK on the informer's thread").isEmpty();
        assertThat(queued).hasSize(1);
        queued.remove(0).run();
        assertThat(got).containsExactly("k");
        store.put("ns/k-ory", component("k-ory", "k", "4", true));
        assertThat(queued)
                .as("a change after the hand-over queues the owner again")
                .hasSize(1);
        queued.remove(0).run();
        assertThat(got).containsExactly("k", "k");
    }

    /** A hand-over that keeps each task with its delay, to be run by the test. */
    private record Scheduled(Duration delay, Runnable task) {}

    private OwnedComponents scheduling(List<Scheduled> scheduled, List<String> got) {
        OwnedComponents later = new OwnedComponents(
                store, clock, Duration.ofSeconds(5), (delay, task) -> scheduled.add(new Scheduled(delay, task)));
        later.setEventHandler(
                (Event e) -> got.add(e.getRelatedCustomResourceID().getName()));
        later.start();
        return later;
    }

    private static HelmComponent inState(HelmComponent component, ComponentState state, long generation) {
        component.getMetadata().setGeneration(generation);
        HelmComponentStatus status = new HelmComponentStatus();
        status.setState(state);
        component.setStatus(status);
        return component;
    }

    @Test
    void changesThatOnlyMoveCountsWaitTheIntervalAndGatherIntoOneEvent() {
        List<Scheduled> scheduled = new ArrayList<>();
        List<String> got = new ArrayList<>();
        scheduling(scheduled, got);
        store.put("ns/k-ory", inState(component("k-ory", "k", "1", true), ComponentState.PENDING, 1));
        store.put("ns/k-istio", inState(component("k-istio", "k", "2", true), ComponentState.PENDING, 1));
        assertThat(scheduled)
                .as("components appearing: at once, one event while queued")
                .hasSize(1);
        assertThat(scheduled.get(0).delay()).isZero();
        scheduled.remove(0).task().run();

        store.put("ns/k-ory", inState(component("k-ory", "k", "3", true), ComponentState.STARTED, 1));
        store.put("ns/k-istio", inState(component("k-istio", "k", "4", true), ComponentState.STARTED, 1));
        store.put("ns/k-ory", inState(component("k-ory", "k", "5", true), ComponentState.FAILING, 1));
        assertThat(scheduled)
                .as("three transitions, one event after the interval")
                .hasSize(1);
        assertThat(scheduled.get(0).delay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(got).containsExactly("k");
        scheduled.remove(0).task().run();
        assertThat(got).containsExactly("k", "k");

        store.put("ns/k-ory", inState(component("k-ory", "k", "6", true), ComponentState.RETRYING, 1));
        assertThat(scheduled)
                .as("after the hand-over a counts change waits again")
                .hasSize(1);
        assertThat(scheduled.get(0).delay()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void successAnEditAndADeletionReachTheKymaAtOnce() {
        List<Scheduled> scheduled = new ArrayList<>();
        List<String> got = new ArrayList<>();
        scheduling(scheduled, got);
        store.put("ns/k-ory", inState(component("k-ory", "k", "1", true), ComponentState.RETRYING, 1));
        scheduled.remove(0).task().run();

        store.put("ns/k-ory", inState(component("k-ory", "k", "2", true), ComponentState.SUCCESS, 1));
        assertThat(scheduled).singleElement().extracting(Scheduled::delay).isEqualTo(Duration.ZERO);
        scheduled.remove(0).task().run();

        store.put("ns/k-ory", inState(component("k-ory", "k", "3", true), ComponentState.SUCCESS, 2));
        assertThat(scheduled)
                .as("an edited spec")
                .singleElement()
                .extracting(Scheduled::delay)
                .isEqualTo(Duration.ZERO);
        scheduled.remove(0).task().run();

        store.put("ns/k-ory", inState(component("k-ory", "k", "4", true), ComponentState.PENDING, 2));
        assertThat(scheduled)
                .as("leaving success")
                .singleElement()
                .extracting(Scheduled::delay)
                .isEqualTo(Duration.ZERO);
        scheduled.remove(0).task().run();

        store.remove("ns/k-ory");
        assertThat(scheduled).singleElement().extracting(Scheduled::delay).isEqualTo(Duration.ZERO);
        scheduled.remove(0).task().run();
        assertThat(got).containsExactly("k", "k", "k", "k", "k");
    }

    @Test
    void aCountsChangeWhileTheKymasEventIsQueuedAddsNothing() {
        List<Scheduled> scheduled = new ArrayList<>();
        List<String> got = new ArrayList<>();
        scheduling(scheduled, got);
        store.put("ns/k-ory", inState(component("k-ory", "k", "1", true), ComponentState.PENDING, 1));
        store.put("ns/k-ory", inState(component("k-ory", "k", "2", true), ComponentState.STARTED, 1));
        assertThat(scheduled)
                .as("the queued reconcile reads the store after both")
                .hasSize(1);
        scheduled.remove(0).task().run();
        assertThat(got).containsExactly("k");
    }

    @Test
    void itsOwnCreateArrivingWaitsLikeACountsChange() {
        List<Scheduled> scheduled = new ArrayList<>();
        List<String> got = new ArrayList<>();
        OwnedComponents later = scheduling(scheduled, got);
        later.created(component("k-ory", "k", "1", true));
        store.put("ns/k-ory", component("k-ory", "k", "1", true));
        assertThat(scheduled).singleElement().extracting(Scheduled::delay).isEqualTo(Duration.ofSeconds(5));

        store.put("ns/k-other", component("k-other", "k", "2", true));
        assertThat(scheduled).as("one it did not create: at once").hasSize(2);
        assertThat(scheduled.get(1).delay()).isZero();
    }

    @Test
    void countsOnlyNeedsTheSameSpecNoDeletionAndNoSuccessOnEitherSide() {
        HelmComponent started = inState(component("c", "k", "1", true), ComponentState.STARTED, 1);
        assertThat(OwnedComponents.countsOnly(
                        started, inState(component("c", "k", "2", true), ComponentState.FAILING, 1)))
                .isTrue();
        assertThat(OwnedComponents.countsOnly(null, started)).isFalse();
        assertThat(OwnedComponents.countsOnly(started, null)).isFalse();
        assertThat(OwnedComponents.countsOnly(
                        started, inState(component("c", "k", "2", true), ComponentState.SUCCESS, 1)))
                .isFalse();
        assertThat(OwnedComponents.countsOnly(
                        started, inState(component("c", "k", "2", true), ComponentState.FAILING, 2)))
                .isFalse();
        HelmComponent deleting = inState(component("c", "k", "2", true), ComponentState.FAILING, 1);
        deleting.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        assertThat(OwnedComponents.countsOnly(started, deleting)).isFalse();
    }

    @Test
    void beforeItStartsNoEventsAreSent() {
        OwnedComponents idle = new OwnedComponents(store, clock, Duration.ofSeconds(5));
        List<Event> got = new ArrayList<>();
        idle.setEventHandler(got::add);
        store.put("ns/k-ory", component("k-ory", "k", "1", true));
        assertThat(got).isEmpty();
        assertThat(idle.getSecondaryResources(kyma("k"))).hasSize(1);
    }
}
