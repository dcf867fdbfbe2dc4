package io.kyma.operator.common;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A controller's word on one of its resources when a reconcile of it is queued: whether it is work that can wait
 * behind reconciles that are due. The manager's executor serves the reconciles that cannot wait first.
 */
public interface WorkPriority<R extends HasMetadata> {

    /**
     * True when the status says nothing is due, so the reconcile only confirms what is there (an event of the
     * informer's initial list, a resync) or the resource waits for something else (a Kyma in line for admission).
     */
    boolean canWait(R resource);

    /** Neither being deleted nor changed since the controller last wrote its status. */
    static boolean settled(HasMetadata resource, Long observedGeneration) {
        return resource.getMetadata().getDeletionTimestamp() == null
                && observedGeneration != null
                && observedGeneration.equals(resource.getMetadata().getGeneration());
    }
}
