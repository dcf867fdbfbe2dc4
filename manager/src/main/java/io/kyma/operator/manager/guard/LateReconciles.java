package io.kyma.operator.manager.guard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * The reconciles resources asked for (a retry, a recheck, the resync), and those that did not begin. JOSDK 5.2.3 can
 * lose them: when an object is deleted and created again under the same name while the deleted one's clean-up is
 * still ending, the end of that clean-up marks the new object's state as cleaned up, and JOSDK then skips every timer
 * of it (its retries, its rechecks) until the object itself changes. A reconcile that has not begun {@link #GRACE}
 * after its time is therefore delivered as a change of the object ({@link MissedExecutions#deliver}), which clears
 * that mark; for a resource JOSDK did not lose, the extra event only joins the one already due. And when a clean-up
 * let its object go ({@link #released}), an object created again under its name meanwhile gets such a change once
 * the clean-up has ended, since its state may carry the mark before it asked for anything.
 */
public final class LateReconciles {
    /** How late a reconcile may begin before it counts as lost: longer than a busy pool keeps one waiting. */
    static final Duration GRACE = Duration.ofSeconds(30);
    /** How long after a clean-up let its object go its end is surely past. */
    static final Duration RELEASED = Duration.ofSeconds(2);

    /**
     * A reconcile {@code controller} owes the object {@code uid} at {@code id} by {@code by}; if {@code replaced}, the
     * object now at {@code id} if it is another one than {@code uid}.
     */
    public record Due(String controller, ResourceID id, String uid, Instant by, boolean replaced) {}

    private final Map<String, Due> due = new ConcurrentHashMap<>();
    private final Clock clock;

    public LateReconciles(Clock clock) {
        this.clock = clock;
    }

    /** {@code controller} asked to reconcile {@code resource} again after {@code after}. */
    public void asked(String controller, HasMetadata resource, Duration after) {
        owe(controller, resource, after.plus(GRACE), false);
    }

    /** {@code controller}'s clean-up let {@code resource} go: its name may be taken again by a new object. */
    public void released(String controller, HasMetadata resource) {
        owe(controller, resource, RELEASED, true);
    }

    private void owe(String controller, HasMetadata resource, Duration within, boolean replaced) {
        ResourceID id = ResourceID.fromResource(resource);
        Instant by = clock.instant().plus(within);
        due.put(
                key(controller, resource),
                new Due(controller, id, resource.getMetadata().getUid(), by, replaced));
    }

    /** {@code due} could not be delivered yet (its object was being reconciled): owed again a grace from now. */
    public void again(Due due) {
        Due later =
                new Due(due.controller(), due.id(), due.uid(), clock.instant().plus(GRACE), due.replaced());
        this.due.putIfAbsent(due.controller() + "/" + due.uid(), later);
    }

    /** A reconcile of {@code resource} by {@code controller} began: nothing of it is awaited. */
    public void came(String controller, HasMetadata resource) {
        due.remove(key(controller, resource));
    }

    /** The reconciles that did not begin in time, no longer awaited (the reconcile they bring asks again). */
    public List<Due> overdue() {
        Instant now = clock.instant();
        List<Due> late = new ArrayList<>();
        for (Map.Entry<String, Due> entry : due.entrySet()) {
            if (now.isAfter(entry.getValue().by()) && due.remove(entry.getKey(), entry.getValue())) {
                late.add(entry.getValue());
            }
        }
        return late;
    }

    /** Reconciles awaited, for tests. */
    int awaited() {
        return due.size();
    }

    private static String key(String controller, HasMetadata resource) {
        String uid = resource.getMetadata().getUid();
        return controller + "/"
                + (uid != null
                        ? uid
                        : resource.getMetadata().getNamespace() + "/"
                                + resource.getMetadata().getName());
    }
}
