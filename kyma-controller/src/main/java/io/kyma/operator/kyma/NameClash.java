package io.kyma.operator.kyma;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.kyma.KymaStatusSummary.Problem;

/** What stands under the name of a component that could not be created because the name is taken. */
public enum NameClash {
    /** Nothing any more: it was deleted meanwhile; try again. */
    GONE,
    /** This Kyma's own component, not yet in the cache: its event is on the way. */
    OURS,
    /**
     * This Kyma's own component without a label the cache selects by: someone removed it, or moved the component to
     * another shard than its Kyma's. Label it again, which brings it back to its Kyma's replica.
     */
    OURS_UNLABELLED,
    /** Another Kyma's component, or an object nobody manages: the Kyma cannot be installed under this name. */
    FOREIGN;

    private static final Logger LOG = LoggerFactory.getLogger(NameClash.class);

    public static NameClash classify(Kyma kyma, HelmComponent existing) {
        if (existing == null) {
            return GONE;
        }
        boolean ours = existing.getMetadata().getOwnerReferences() != null
                && existing.getMetadata().getOwnerReferences().stream().anyMatch(o -> ownedBy(o, kyma));
        if (!ours) {
            return FOREIGN;
        }
        Map<String, String> labels = existing.getMetadata().getLabels();
        Map<String, String> kymaLabels = kyma.getMetadata().getLabels();
        String shard = kymaLabels == null ? null : kymaLabels.get(Labels.SHARD);
        boolean onKymasShard = shard == null || labels != null && shard.equals(labels.get(Labels.SHARD));
        return labels != null && Labels.MANAGED_BY_VALUE.equals(labels.get(Labels.MANAGED_BY)) && onKymasShard
                ? OURS
                : OURS_UNLABELLED;
    }

    /**
     * Creates a component of {@code kyma}; a name that is taken is looked into, and a problem if someone else holds
     * it. A name the informer's store already shows under someone else costs no request: a Kyma whose names are
     * taken is looked at again every {@link KymaReconciler#NAME_TAKEN_RECHECK}, and a create and a read per name
     * each time would spend the write budget on nothing.
     *
     * @param cached what the store holds under the component's name, or null
     */
    static Optional<Problem> create(Kyma kyma, HelmComponent desired, KymaWrites writes, HelmComponent cached) {
        if (cached != null && classify(kyma, cached) == FOREIGN) {
            return Optional.of(taken(kyma, desired, cached));
        }
        try {
            writes.create(desired);
            return Optional.empty();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        String name = desired.getMetadata().getName();
        String namespace = kyma.getMetadata().getNamespace();
        HelmComponent existing = writes.get(namespace, name);
        switch (classify(kyma, existing)) {
            case FOREIGN -> {
                LOG.warn(
                        "Kyma {}/{}: HelmComponent {} belongs to {}",
                        namespace,
                        kyma.getMetadata().getName(),
                        name,
                        holder(existing));
                return Optional.of(taken(kyma, desired, existing));
            }
            case OURS_UNLABELLED -> {
                LOG.info(
                        "Kyma {}/{}: HelmComponent {} lost its labels or left the Kyma's shard, labelling it again",
                        namespace,
                        kyma.getMetadata().getName(),
                        name);
                writes.relabel(existing, desired.getMetadata().getLabels());
            }
            default -> {
                // ours and on its way to the cache, or gone: the next event or recheck settles it
            }
        }
        return Optional.empty();
    }

    private static Problem taken(Kyma kyma, HelmComponent desired, HelmComponent holder) {
        return new Problem(
                KymaStatusSummary.REASON_NAME_TAKEN,
                "HelmComponent " + desired.getMetadata().getName()
                        + " belongs to " + holder(holder) + "; rename this Kyma or drop module "
                        + desired.getSpec().getModule()
                        + " (checked again every " + KymaReconciler.NAME_TAKEN_RECHECK.toSeconds() + "s)");
    }

    /** Who holds the name, for the Kyma's status. */
    public static String holder(HelmComponent existing) {
        return existing.getMetadata().getOwnerReferences() == null
                ? "an object no Kyma owns"
                : existing.getMetadata().getOwnerReferences().stream()
                        .filter(o -> Boolean.TRUE.equals(o.getController()))
                        .map(o -> o.getKind() + " " + o.getName())
                        .findFirst()
                        .orElse("an object no Kyma owns");
    }

    private static boolean ownedBy(OwnerReference owner, Kyma kyma) {
        return Objects.equals(owner.getUid(), kyma.getMetadata().getUid())
                && Boolean.TRUE.equals(owner.getController());
    }
}
