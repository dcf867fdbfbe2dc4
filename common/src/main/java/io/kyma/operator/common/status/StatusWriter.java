package io.kyma.operator.common.status;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * How a reconciler writes its primary resource's status: {@link StatusPatch} in the operator, a recording fake in the
 * tests of the reconciler's decisions.
 */
@FunctionalInterface
public interface StatusWriter<P extends HasMetadata, S> {
    void write(P primary, S status, Context<P> context);
}
