package io.kyma.operator.kyma;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.cache.SharedStore;

/**
 * The Kyma controller's HelmComponents, without an informer of its own: it reads the HelmComponent controller's
 * informer store, shared through the manager, and turns each change there into an event for the Kymas it concerns.
 * A Kyma's components are those whose controller reference carries its uid ({@link Ownership}): other ownerReferences
 * do not count, whatever their order, and neither do the reference's name and kind, which anyone who may edit the
 * component can change. This class keeps that index itself, by namespace and uid, since the store's own index goes by
 * the first reference to a Kyma. A change is told to the Kyma the controller reference names before and after it, and
 * to the Kyma its {@code kyma} label names, which finds the orphans that Kyma may adopt.
 * <p>
 * Read after write: a component this controller created is seen at once, before the informer has it, until the
 * informer holds that version or a later one, or for {@link #CREATED_TTL} at most (a create whose watch event was
 * lost to a relist); at most {@link #CREATED_MAX} are held, beyond that a create is left to the informer.
 * <p>
 * A change that can only move the owner's counts ({@link #countsOnly}) reaches the owner after {@code countsDelay},
 * together with every other such change of its components in that time: the Kyma writes changed counts at most once
 * per status interval anyway, and its reconcile reads all its components, so one reconcile per interval says what
 * one per component transition said. Every other change (a component appearing, going, being edited, entering or
 * leaving {@code success}) reaches it at once.
 */
final class OwnedComponents extends AbstractEventSource<HelmComponent, Kyma> {
    static final Duration CREATED_TTL = Duration.ofMinutes(5);
    static final int CREATED_MAX = 20_000;
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(10);

    private final SharedStore<HelmComponent> store;
    private final Clock clock;
    private final Map<String, Created> created = new ConcurrentHashMap<>();
    /** Keys of {@link #created} by owning Kyma ("namespace/uid"), so that a reconcile reads only its own. */
    private final Map<String, Set<String>> createdByOwner = new ConcurrentHashMap<>();
    /** Keys of the store's components by the uid of their controller ("namespace/uid"). */
    private final Map<String, Set<String>> byController = new ConcurrentHashMap<>();

    private volatile Instant nextSweep = Instant.MIN;
    /**
     * Where the owners' events are handed to JOSDK: JOSDK's event handling takes the Kyma controller's lock, which
     * reconciles hold too, so the informer's thread only queues the owner and goes on reading the watch.
     */
    private final HandOff handOff;

    private final Duration countsDelay;
    /** Owners queued and not yet handed over: a burst of changes to one Kyma's components is one event. */
    private final Set<String> queuedOwners = ConcurrentHashMap.newKeySet();
    /** Owners whose counts-only changes wait for {@link #countsDelay}. */
    private final Set<String> countsQueuedOwners = ConcurrentHashMap.newKeySet();

    /** Runs the hand-over of an owner's event to JOSDK after a delay (zero: as soon as it can), in order. */
    @FunctionalInterface
    interface HandOff {
        void after(Duration delay, Runnable task);

        /** One daemon thread. */
        static HandOff thread(String name) {
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(name));
            return (delay, task) -> {
                if (delay.isZero()) {
                    executor.execute(task);
                } else {
                    executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
                }
            };
        }
    }

    private record Created(HelmComponent component, String owner, Instant at) {}

    /** @param countsDelay how long a change that can only move the owner's counts waits, gathering others */
    OwnedComponents(SharedStore<HelmComponent> store, Clock clock, Duration countsDelay) {
        this(store, clock, countsDelay, HandOff.thread("kyma-component-events"));
    }

    /** @param handOff runs the hand-over of each owner's event to JOSDK */
    OwnedComponents(SharedStore<HelmComponent> store, Clock clock, Duration countsDelay, HandOff handOff) {
        super(HelmComponent.class, "helmcomponents");
        this.store = store;
        this.clock = clock;
        this.countsDelay = countsDelay.isNegative() ? Duration.ZERO : countsDelay;
        this.handOff = handOff;
        store.onChange(this::changed);
        store.values().forEach(c -> index(null, c)); // normally none: the informers start after the controllers
    }

    /** Whether the informer behind the store has listed every component once. */
    boolean synced() {
        return store.synced();
    }

    /** Components created by this controller that the informer does not hold yet. */
    int pendingCreates() {
        return created.size();
    }

    /** Components of the namespace created by this controller that the informer does not hold yet. */
    int pendingCreates(String namespace) {
        // by owner: the owners with creates the informer has not delivered are few, their components many
        String prefix = namespace + "/";
        int count = 0;
        for (Map.Entry<String, Set<String>> owner : createdByOwner.entrySet()) {
            if (owner.getKey().startsWith(prefix)) {
                count += owner.getValue().size();
            }
        }
        return count;
    }

    /** Remembers a component this controller just created, as the API server answered. */
    void created(HelmComponent component) {
        Instant now = clock.instant();
        if (created.size() >= CREATED_MAX || !now.isBefore(nextSweep)) {
            // Entries leave as the informer catches up; a scan for expired ones every SWEEP_EVERY is plenty, rather
            // than one per create (thousands a second during a burst).
            nextSweep = now.plus(SWEEP_EVERY);
            created.entrySet()
                    .removeIf(e -> e.getValue().at().plus(CREATED_TTL).isBefore(now)
                            && unindexed(e.getKey(), e.getValue()) == null);
        }
        Optional<String> owner = controllerUid(component);
        if (created.size() < CREATED_MAX && owner.isPresent()) {
            // The API server's answer carries managedFields, often bigger than the rest of it: held as the store
            // holds its objects.
            String key = key(component);
            created.put(key, new Created(store.lean(component), owner.get(), now));
            createdByOwner
                    .computeIfAbsent(owner.get(), k -> ConcurrentHashMap.newKeySet())
                    .add(key);
        }
    }

    /** Takes {@code key} out of the owner index; answers null, to be used where an entry goes. */
    private Created unindexed(String key, Created gone) {
        createdByOwner.computeIfPresent(gone.owner(), (o, keys) -> {
            keys.remove(key);
            return keys.isEmpty() ? null : keys;
        });
        return null;
    }

    @Override
    public Set<HelmComponent> getSecondaryResources(Kyma kyma) {
        Map<String, HelmComponent> found = new HashMap<>();
        String owner =
                kyma.getMetadata().getNamespace() + "/" + kyma.getMetadata().getUid();
        Set<String> indexed = byController.get(owner);
        if (indexed != null) {
            indexed.stream().map(store::get).filter(Objects::nonNull).forEach(c -> found.put(key(c), c));
        }
        Set<String> mine = createdByOwner.get(owner);
        if (mine != null) {
            Instant now = clock.instant();
            for (String key : mine) {
                Created c = created.get(key);
                if (c != null && c.at().plus(CREATED_TTL).isAfter(now)) {
                    found.merge(key, c.component(), (cached, held) -> newer(held, cached) ? held : cached);
                }
            }
        }
        // unique by key already; a HashSet would hash every component whole (spec, status, metadata) per reconcile
        Set<HelmComponent> owned = Collections.newSetFromMap(new IdentityHashMap<>(found.size()));
        owned.addAll(found.values());
        return owned;
    }

    /** The component of that name: the store's, or this controller's create if the store is behind; else null. */
    HelmComponent named(String namespace, String name) {
        String key = namespace + "/" + name;
        HelmComponent cached = store.get(key);
        Created mine = created.get(key);
        if (mine == null || !mine.at().plus(CREATED_TTL).isAfter(clock.instant())) {
            return cached;
        }
        return cached == null || newer(mine.component(), cached) ? mine.component() : cached;
    }

    private void index(HelmComponent before, HelmComponent after) {
        Optional<String> was = before == null ? Optional.empty() : controllerUid(before);
        Optional<String> is = after == null ? Optional.empty() : controllerUid(after);
        String key = key(after != null ? after : before);
        was.filter(o -> !is.equals(was))
                .ifPresent(o -> byController.computeIfPresent(o, (k, keys) -> {
                    keys.remove(key);
                    return keys.isEmpty() ? null : keys;
                }));
        is.ifPresent(o -> byController
                .computeIfAbsent(o, k -> ConcurrentHashMap.newKeySet())
                .add(key));
    }

    private void changed(HelmComponent before, HelmComponent after) {
        index(before, after);
        // a component this controller created is in the owner's view already, before the informer has it
        boolean ownCreate = before == null && after != null && created.containsKey(key(after));
        if (after != null) {
            created.computeIfPresent(
                    key(after), (k, mine) -> newer(mine.component(), after) ? mine : unindexed(k, mine));
        } else {
            String key = key(before);
            Created gone = created.remove(key);
            if (gone != null) {
                unindexed(key, gone);
            }
        }
        if (!isRunning() || getEventHandler() == null) {
            return; // a controller that has not started yet reconciles every Kyma when it starts
        }
        Optional<String> was = before == null ? Optional.empty() : owner(before);
        Optional<String> is = after == null ? Optional.empty() : owner(after);
        if (ownCreate ? is.isPresent() : was.isPresent() && was.equals(is) && countsOnly(before, after)) {
            tellLater(is.get());
            return;
        }
        was.ifPresent(this::tell);
        is.filter(o -> !is.equals(was)).ifPresent(this::tell);
        // the Kyma the label names, if no controller reference did: one that may adopt the component
        labelled(after != null ? after : before)
                .filter(o -> !o.equals(was.orElse(null)) && !o.equals(is.orElse(null)))
                .ifPresent(this::tell);
    }

    private static Optional<String> labelled(HelmComponent component) {
        Map<String, String> labels = component.getMetadata().getLabels();
        String kyma = labels == null ? null : labels.get(Labels.KYMA);
        return kyma == null
                ? Optional.empty()
                : Optional.of(component.getMetadata().getNamespace() + "/" + kyma);
    }

    /**
     * Whether going from {@code before} to {@code after} can change the owner's counts but not its phase or its
     * conditions: the same spec, not being deleted, and neither in {@code success} (the last one there makes the
     * Kyma Ready, one leaving it takes that back).
     */
    static boolean countsOnly(HelmComponent before, HelmComponent after) {
        return before != null
                && after != null
                && !succeeded(before)
                && !succeeded(after)
                && Objects.equals(
                        before.getMetadata().getGeneration(),
                        after.getMetadata().getGeneration())
                && after.getMetadata().getDeletionTimestamp() == null;
    }

    private static boolean succeeded(HelmComponent component) {
        return component.getStatus() != null && component.getStatus().getState() == ComponentState.SUCCESS;
    }

    private void tell(String owner) {
        if (queuedOwners.add(owner)) {
            // a change from now on queues the owner again: none is lost
            handOff.after(Duration.ZERO, () -> handOver(owner, queuedOwners));
        }
    }

    private void tellLater(String owner) {
        if (queuedOwners.contains(owner)) {
            return; // its reconcile starts after this change and reads it
        }
        if (countsQueuedOwners.add(owner)) {
            handOff.after(countsDelay, () -> handOver(owner, countsQueuedOwners));
        }
    }

    private void handOver(String owner, Set<String> queued) {
        queued.remove(owner);
        if (isRunning() && getEventHandler() != null) {
            int slash = owner.indexOf('/');
            getEventHandler()
                    .handleEvent(new Event(new ResourceID(owner.substring(slash + 1), owner.substring(0, slash))));
        }
    }

    /** The object that controls the component, as "namespace/uid": what the owner index goes by. */
    private static Optional<String> controllerUid(HelmComponent component) {
        OwnerReference controller = Ownership.controller(component);
        return controller == null || controller.getUid() == null
                ? Optional.empty()
                : Optional.of(component.getMetadata().getNamespace() + "/" + controller.getUid());
    }

    /** The Kyma the component's controller reference names, as "namespace/name": whom a change is told. */
    private static Optional<String> owner(HelmComponent component) {
        OwnerReference controller = Ownership.controller(component);
        return controller == null || !Kyma.class.getSimpleName().equals(controller.getKind())
                ? Optional.empty()
                : Optional.of(component.getMetadata().getNamespace() + "/" + controller.getName());
    }

    /** Whether {@code a} is a later version than {@code b}, by their resourceVersions. */
    static boolean newer(HelmComponent a, HelmComponent b) {
        try {
            return Long.parseLong(a.getMetadata().getResourceVersion())
                    > Long.parseLong(b.getMetadata().getResourceVersion());
        } catch (NumberFormatException e) {
            return false; // not comparable: the informer's copy wins
        }
    }

    private static String key(HelmComponent component) {
        return component.getMetadata().getNamespace() + "/"
                + component.getMetadata().getName();
    }
}
