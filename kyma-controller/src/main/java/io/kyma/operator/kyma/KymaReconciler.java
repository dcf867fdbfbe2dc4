package io.kyma.operator.kyma;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.common.status.ApiFailure;
import io.kyma.operator.common.status.Conditions;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.kyma.KymaStatusSummary.Problem;

/**
 * Fans a Kyma out into one HelmComponent per module, deletes the components of removed modules, and summarises
 * their progress in the Kyma's status. Components are read from the HelmComponent controller's informer store, never
 * listed per reconcile and never watched a second time.
 */
@ControllerConfiguration(name = KymaReconciler.NAME)
public class KymaReconciler implements Reconciler<Kyma>, Cleaner<Kyma>, WorkPriority<Kyma> {
    public static final String NAME = "kyma";
    private static final Logger LOG = LoggerFactory.getLogger(KymaReconciler.class);
    /** A safety net while children are being deleted; their delete events normally come first. */
    private static final Duration DELETION_RECHECK = Duration.ofSeconds(10);
    /** How often a Kyma whose component name someone else holds looks again. */
    static final Duration NAME_TAKEN_RECHECK = Duration.ofSeconds(10);
    /** How often a Kyma looks again while the components are still being listed. */
    static final Duration SYNC_RECHECK = Duration.ofSeconds(1);

    private final Clock clock;
    private final KymaStatusSummary summary;
    private final StatusWritePolicy writePolicy;
    private final Map<String, Instant> lastStatusWrite = new ConcurrentHashMap<>();
    private final SharedStore<HelmComponent> store;
    private final OwnedComponents components;
    private final KymaWrites writes;
    private final Admission admission;
    private final ChildOrder order = new ChildOrder();
    private volatile Events events = Events.NONE;

    /**
     * @param components the HelmComponent controller's informer store, which this controller reads its components
     *        from instead of watching them a second time
     * @param admissionBacklog the component backlog below which the next Kyma in line gets its components, see
     *        {@link Admission}; negative admits every Kyma at once
     */
    public KymaReconciler(
            Clock clock, Duration statusInterval, SharedStore<HelmComponent> components, int admissionBacklog) {
        this(clock, statusInterval, components, admissionBacklog, null);
    }

    /** @param writes what the reconciler sends to the API server; null for the context's client */
    KymaReconciler(
            Clock clock,
            Duration statusInterval,
            SharedStore<HelmComponent> components,
            int admissionBacklog,
            KymaWrites writes) {
        this.writes = writes;
        this.clock = clock;
        this.store = components;
        this.summary = new KymaStatusSummary(new Conditions(clock));
        this.writePolicy = new StatusWritePolicy(statusInterval);
        this.admission = new Admission(clock, admissionBacklog);
        // changes that only move counts are written once per interval at most: gathered over one interval
        this.components = new OwnedComponents(components, clock, statusInterval);
    }

    /** Where this controller tells what happened to Kymas; none until set. */
    public void tellWith(Events events) {
        this.events = events;
    }

    /** Which Kymas get their components now; fed by {@link #changed}. */
    public Admission admission() {
        return admission;
    }

    /**
     * Follows the Kyma informer's store (the manager feeds it every change): admission's line, and what is kept per
     * Kyma dropped once it leaves the store (deleted, with or without this controller's cleanup, or moved to another
     * shard).
     */
    public void changed(Kyma before, Kyma after) {
        admission.changed(before, after);
        if (before != null
                && (after == null
                        || !Objects.equals(
                                before.getMetadata().getUid(),
                                after.getMetadata().getUid()))) {
            lastStatusWrite.remove(before.getMetadata().getUid()); // gone, or replaced at a relist by a new object
        }
    }

    /** Kymas whose last status write this controller keeps, to pace the next (for tests). */
    int paced() {
        return lastStatusWrite.size();
    }

    /**
     * @param componentQueue a namespace's HelmComponent reconciles due and waiting for a worker; with its creates the
     *        informer has not delivered yet, the backlog that admission keeps below its bound in that namespace
     */
    public void measureComponentQueue(ToIntFunction<String> componentQueue) {
        admission.measureBacklog(
                namespace -> componentQueue.applyAsInt(namespace) + components.pendingCreates(namespace));
    }

    /** The store this controller reads its components from; the HelmComponent controller's informer must fill it. */
    public SharedStore<HelmComponent> componentStore() {
        return store;
    }

    /** Components this controller created that the informer does not hold yet (bounded, see OwnedComponents). */
    public int pendingCreates() {
        return components.pendingCreates();
    }

    @Override
    public List<EventSource<?, Kyma>> prepareEventSources(EventSourceContext<Kyma> context) {
        return List.of(components, new AdmissionTicker(admission));
    }

    @Override
    public UpdateControl<Kyma> reconcile(Kyma kyma, Context<Kyma> context) {
        if (!store.synced()) {
            // before the components are listed, a missing one may only be not yet seen: decide nothing
            return UpdateControl.<Kyma>noUpdate().rescheduleAfter(SYNC_RECHECK);
        }
        KymaWrites writes = writes(context);
        ModulePlan plan = ModulePlan.of(kyma);
        String uid = kyma.getMetadata().getUid();
        List<HelmComponent> controlled =
                context.getSecondaryResourcesAsStream(HelmComponent.class).toList();
        ComponentActions actions =
                ComponentActions.decide(kyma, plan, name -> components.named(namespace(kyma), name), controlled);
        List<HelmComponent> mine = actions.mine(kyma);
        if (plan.modules().isEmpty()) {
            admission.release(uid); // nothing to create: it must not hold up the line
        } else {
            // Admitted before this process knew (a restart): it has components and got past Pending. Components
            // alone are no proof: anyone may create one that names the Kyma as its owner, to skip the line.
            boolean admittedBefore = !mine.isEmpty()
                    && kyma.getStatus() != null
                    && kyma.getStatus().getPhase() != null
                    && kyma.getStatus().getPhase() != KymaPhase.PENDING;
            Optional<Admission.Place> place =
                    admission.admit(kyma, plan.modules().size(), admittedBefore);
            if (place.isPresent()) {
                // its turn comes by the admission ticker, not by a timer of its own
                writeStatus(kyma, summary.queued(kyma, plan, place.get()), writes);
                return UpdateControl.noUpdate();
            }
        }
        List<Problem> problems = new ArrayList<>();
        try {
            // Each child on its own: one create a quota or a webhook refuses does not keep the others from their
            // desired state; the first failure decides the outcome once all were tried.
            List<ChildOrder.Write> each = new ArrayList<>();
            for (ComponentActions.Child child : actions.children()) {
                each.add(new ChildOrder.Write(
                        name(child.desired()),
                        () -> ChildSync.sync(kyma, child.desired(), child.existing(), writes)
                                .ifPresent(problems::add)));
            }
            actions.delete()
                    .forEach(gone ->
                            each.add(new ChildOrder.Write(name(gone), () -> ChildSync.delete(kyma, gone, writes))));
            KubernetesClientException first = order.writeEach(uid, each);
            if (first != null) {
                throw first;
            }
        } catch (KubernetesClientException e) {
            FailureClass failure = ApiFailure.classify(e);
            if (failure == FailureClass.CONFLICT) {
                throw e; // a stale read: retried at once on fresh data, nothing to tell the user
            }
            if (failure != FailureClass.SPEC) {
                // Quota, RBAC, a webhook, the server: retried with backoff by the shared limiter, as a raised quota or
                // a fixed webhook helps without any edit; the status says so, if the API server takes it.
                problems.add(new Problem(ApiFailure.reason(e), ApiFailure.describe(e), true));
                throw tellDespite(e, () -> writeStatus(kyma, summary.summarise(kyma, plan, mine, problems), writes));
            }
            // Only an edit of the Kyma can help (invalid): say so, and wait for the next change of the Kyma.
            LOG.warn("Kyma {}/{}: {}", namespace(kyma), kyma.getMetadata().getName(), ApiFailure.describe(e));
            problems.add(new Problem(ApiFailure.reason(e), ApiFailure.describe(e)));
        } finally {
            admission.createsDone(uid);
        }
        DeletionHold.ofRemoved(actions.leaving()).ifPresent(problems::add);
        UpdateControl<Kyma> control = writeStatus(kyma, summary.summarise(kyma, plan, mine, problems), writes);
        ChildSync.backOffIfOverridden(problems);
        if (problems.stream().anyMatch(p -> p.reason().equals(KymaStatusSummary.REASON_NAME_TAKEN))) {
            // The holder's deletion is not an event of this Kyma's; look again now and then.
            return UpdateControl.<Kyma>noUpdate().rescheduleAfter(NAME_TAKEN_RECHECK);
        }
        return control;
    }

    /** A Kyma waiting in line for admission, or Ready with its spec observed, has nothing due. */
    @Override
    public boolean canWait(Kyma kyma) {
        KymaStatus status = kyma.getStatus();
        return status != null
                && WorkPriority.settled(kyma, status.getObservedGeneration())
                && (status.getPhase() == KymaPhase.READY
                        || status.getPhase() == KymaPhase.PENDING
                                && admission.waitsInLine(kyma.getMetadata().getUid()));
    }

    @Override
    public DeleteControl cleanup(Kyma kyma, Context<Kyma> context) {
        if (!store.synced()) {
            return DeleteControl.noFinalizerRemoval().rescheduleAfter(SYNC_RECHECK);
        }
        String uid = kyma.getMetadata().getUid();
        // only what this Kyma controls: a component another object controls is not its to delete
        List<HelmComponent> remaining = context.getSecondaryResourcesAsStream(HelmComponent.class)
                .filter(c -> Ownership.controlledBy(c, uid))
                .toList();
        if (remaining.isEmpty()) {
            lastStatusWrite.remove(uid);
            order.forget(uid);
            LOG.info(
                    "Kyma {}/{}: all components deleted",
                    kyma.getMetadata().getNamespace(),
                    kyma.getMetadata().getName());
            return DeleteControl.defaultDelete();
        }
        KymaWrites writes = writes(context);
        // each on its own, those that failed last time last: one deletion refused or hanging holds back no other
        KubernetesClientException first = order.writeEach(
                uid,
                remaining.stream()
                        .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                        .map(c -> new ChildOrder.Write(name(c), () -> ChildSync.delete(kyma, c, writes)))
                        .toList());
        if (first != null) {
            // retried with backoff; the status names what the API server said, unless a stale read is all it was
            if (ApiFailure.classify(first) == FailureClass.CONFLICT) {
                throw first;
            }
            Problem problem = new Problem(ApiFailure.reason(first), ApiFailure.describe(first));
            throw tellDespite(first, () -> showDeleting(kyma, remaining, problem, writes));
        }
        showDeleting(kyma, remaining, DeletionHold.of(remaining), writes);
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_RECHECK);
    }

    /** Writes the deletion's status whenever it says something new: counts and what holds it are current. */
    private void showDeleting(Kyma kyma, List<HelmComponent> remaining, Problem hold, KymaWrites writes) {
        KymaStatus deleting = summary.deleting(kyma, ModulePlan.of(kyma), remaining, hold);
        if (writePolicy
                .decide(kyma.getStatus(), deleting, null, clock.instant())
                .writeNow()) {
            patchStatus(kyma, deleting, writes);
            KymaEvents.of(kyma.getStatus() == null ? null : kyma.getStatus().getPhase(), deleting)
                    .ifPresent(notice -> notice.tell(events, kyma));
        }
    }

    /**
     * Writes the status that tells what {@code failure} did, even when the reconcile's time ran out meanwhile and its
     * thread is interrupted (which fails every call): the flag is set again after, for the guard that clears it. A
     * failure of that write is kept beside {@code failure}, which is returned to be thrown.
     */
    private static KubernetesClientException tellDespite(KubernetesClientException failure, Runnable statusWrite) {
        boolean interrupted = Thread.interrupted();
        try {
            statusWrite.run();
        } catch (KubernetesClientException statusFailure) {
            failure.addSuppressed(statusFailure);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return failure;
    }

    private static String name(HelmComponent component) {
        return component.getMetadata().getName();
    }

    private static String namespace(Kyma kyma) {
        return kyma.getMetadata().getNamespace();
    }

    private KymaWrites writes(Context<Kyma> context) {
        return writes != null ? writes : KymaWrites.of(context, components);
    }

    private UpdateControl<Kyma> writeStatus(Kyma kyma, KymaStatus desired, KymaWrites writes) {
        Instant now = clock.instant();
        var decision = writePolicy.decide(
                kyma.getStatus(),
                desired,
                lastStatusWrite.get(kyma.getMetadata().getUid()),
                now);
        if (decision.writeNow()) {
            KymaPhase before =
                    kyma.getStatus() == null ? null : kyma.getStatus().getPhase();
            patchStatus(kyma, desired, writes);
            KymaEvents.of(before, desired).ifPresent(notice -> notice.tell(events, kyma));
            if (before != desired.getPhase()) {
                LOG.info(
                        "Kyma {}/{}: phase {} -> {} ({})",
                        kyma.getMetadata().getNamespace(),
                        kyma.getMetadata().getName(),
                        before == null ? "none" : before,
                        desired.getPhase(),
                        desired.getReadyComponents());
            }
        }
        return decision.retryAfter()
                .map(delay -> UpdateControl.<Kyma>noUpdate().rescheduleAfter(delay))
                .orElseGet(UpdateControl::noUpdate);
    }

    private void patchStatus(Kyma kyma, KymaStatus status, KymaWrites writes) {
        writes.status(kyma, status);
        lastStatusWrite.put(kyma.getMetadata().getUid(), clock.instant());
    }
}
