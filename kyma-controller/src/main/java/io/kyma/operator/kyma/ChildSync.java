package io.kyma.operator.kyma;

import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.status.ApiFailure;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.kyma.KymaStatusSummary.Problem;

/**
 * Create-or-update of one component a Kyma's plan asks for, as controller-runtime's CreateOrUpdate with
 * SetControllerReference and a ReplicaSet's adoption: a missing component is created; one the Kyma controls, or may
 * adopt ({@link Ownership.Kind#ADOPTABLE}), gets the operator's fields ({@link ChildComponents}) set back wherever
 * they differ, and nothing else; one another live object controls is not written to, and is a problem naming that
 * object.
 */
final class ChildSync {
    private static final Logger LOG = LoggerFactory.getLogger(ChildSync.class);

    private ChildSync() {}

    /**
     * @param cached what the cache holds under the component's name, or null; the cache keeps only some of a
     *        component's ownerReferences, so a change of them is based on a fresh read
     */
    static Optional<Problem> sync(Kyma kyma, HelmComponent desired, HelmComponent cached, KymaWrites writes) {
        if (cached != null) {
            return converge(kyma, desired, cached, false, writes);
        }
        try {
            writes.create(desired);
            return Optional.empty();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        // taken by an object the cache does not hold: without the labels it selects by, or not yet seen
        HelmComponent existing = writes.get(
                kyma.getMetadata().getNamespace(), desired.getMetadata().getName());
        return existing == null ? Optional.empty() : converge(kyma, desired, existing, true, writes);
    }

    /** Whether the API server has no Kyma the controller reference names, and {@code kyma} is its live self. */
    private static boolean controllerGone(Kyma kyma, Ownership ownership, KymaWrites writes) {
        String namespace = kyma.getMetadata().getNamespace();
        Optional<String> self = writes.liveUid(namespace, kyma.getMetadata().getName());
        if (!self.equals(Optional.ofNullable(kyma.getMetadata().getUid()))) {
            return false; // this copy is stale: leave the component to the Kyma that now has the name
        }
        String name = ownership.controller().getName();
        Optional<String> holder = name.equals(kyma.getMetadata().getName()) ? self : writes.liveUid(namespace, name);
        return !holder.equals(Optional.ofNullable(ownership.controller().getUid()));
    }

    private static Optional<Problem> converge(
            Kyma kyma, HelmComponent desired, HelmComponent existing, boolean fresh, KymaWrites writes) {
        Ownership ownership = Ownership.of(kyma, existing);
        if (ownership.kind() == Ownership.Kind.FOREIGN
                || ownership.kind() == Ownership.Kind.OTHER_KYMA && !controllerGone(kyma, ownership, writes)) {
            return Optional.of(taken(kyma, desired, ownership));
        }
        if (existing.getMetadata().getDeletionTimestamp() != null) {
            // created again once it is gone; while someone else's finalizer holds it, the status names the hold
            String held = DeletionHold.held(existing);
            return held.isEmpty()
                    ? Optional.empty()
                    : Optional.of(new Problem(
                            KymaStatusSummary.REASON_FINALIZERS,
                            "waiting for " + held + " to let it go, to create it again",
                            true));
        }
        if (!ChildDrift.differs(existing, desired)) {
            return Optional.empty();
        }
        String namespace = kyma.getMetadata().getNamespace();
        String name = desired.getMetadata().getName();
        if (!fresh && ChildDrift.ownerDiffers(existing, desired)) {
            HelmComponent latest = writes.get(namespace, name);
            return latest == null ? Optional.empty() : converge(kyma, desired, latest, true, writes);
        }
        LOG.info(
                "Kyma {}/{}: {} HelmComponent {}",
                namespace,
                kyma.getMetadata().getName(),
                ownership.kind() == Ownership.Kind.MINE ? "setting back the operator's fields of" : "adopting",
                name);
        HelmComponent stored;
        try {
            stored = writes.restore(existing, ChildDrift.restore(existing, desired));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            return Optional.empty(); // gone meanwhile: its deletion event brings the Kyma back to create it
        }
        // The write was based on the version read, so what differs in the answer is admission's doing: writing
        // again at every event would never end. The status names it; the reconcile retries with backoff.
        List<String> overridden = stored == null ? List.of() : ChildDrift.fields(stored, desired);
        return overridden.isEmpty()
                ? Optional.empty()
                : Optional.of(new Problem(
                        KymaStatusSummary.REASON_OVERRIDDEN,
                        "HelmComponent " + namespace + "/" + name + ": the API server stored "
                                + String.join(
                                        ", ",
                                        overridden.subList(0, Math.min(overridden.size(), KymaStatusSummary.NAMED)))
                                + (overridden.size() > KymaStatusSummary.NAMED
                                        ? " and " + (overridden.size() - KymaStatusSummary.NAMED) + " more fields"
                                        : "")
                                + " after the operator set it back (a mutating webhook or another writer changes it)",
                        true));
    }

    /**
     * Ends the reconcile with a retryable failure if a component's fields were overridden as they were written: the
     * reconcile guard retries it with its capped backoff, however many events arrive meanwhile, so the writes stay
     * bounded. Called once the status naming the fields is written.
     */
    static void backOffIfOverridden(List<Problem> problems) {
        problems.stream()
                .filter(p -> p.reason().equals(KymaStatusSummary.REASON_OVERRIDDEN))
                .findFirst()
                .ifPresent(p -> {
                    throw new FieldsOverridden(p.message());
                });
    }

    /** A write whose result admission changed back: retried with backoff, never at once. */
    static final class FieldsOverridden extends RuntimeException {
        FieldsOverridden(String message) {
            super(message);
        }
    }

    /**
     * Deletes a component the Kyma controls that it wants gone (its module was removed, or the Kyma is being deleted),
     * as the version the decision was made on: the delete carries that resourceVersion as its precondition, so a
     * component replaced under the same name meanwhile, or re-owned, is never deleted. On a conflict the decision is
     * made once more on the API server's current object; a second conflict is left to the reconcile's retry.
     */
    static void delete(Kyma kyma, HelmComponent gone, KymaWrites writes) {
        String namespace = kyma.getMetadata().getNamespace();
        String name = gone.getMetadata().getName();
        LOG.info(
                "Kyma {}/{}: deleting component {}",
                namespace,
                kyma.getMetadata().getName(),
                name);
        try {
            writes.delete(gone);
        } catch (KubernetesClientException e) {
            if (ApiFailure.classify(e) != FailureClass.CONFLICT) {
                throw e;
            }
            HelmComponent now = writes.get(namespace, name);
            if (now != null
                    && Ownership.controlledBy(now, kyma.getMetadata().getUid())
                    && now.getMetadata().getDeletionTimestamp() == null) {
                writes.delete(now);
            }
        }
    }

    private static Problem taken(Kyma kyma, HelmComponent desired, Ownership holder) {
        return new Problem(
                KymaStatusSummary.REASON_NAME_TAKEN,
                "HelmComponent " + desired.getMetadata().getName() + " belongs to " + holder.holder()
                        + "; rename this Kyma or drop module "
                        + desired.getSpec().getModule()
                        + " (checked again every " + GoDuration.format(KymaReconciler.NAME_TAKEN_RECHECK) + ")");
    }
}
