package io.kyma.operator.common;

import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * Writes a primary resource's status with server-side apply and puts the answer into the controller's cache.
 * <p>
 * JOSDK 5.2.3 discards the answer of an {@code UpdateControl.patchStatus}, so a timer-driven reconcile that runs
 * before the watch event arrives would see the old status and could write the same transition twice. The patch
 * carries the cached resourceVersion: if anything else changed the resource meanwhile it fails with 409 and the
 * reconcile is retried on fresh data instead of overwriting it.
 */
public final class StatusPatch {
    private StatusPatch() {
    }

    /**
     * Writes {@code status} as the status of {@code primary}, through a fresh object that holds only the name,
     * namespace and status, so that server-side apply claims nothing else.
     *
     * @param fresh makes an empty object of the primary's type
     */
    public static <S, P extends CustomResource<?, S>> P apply(P primary, Supplier<P> fresh, S status,
            Context<P> context) {
        P statusOnly = fresh.get();
        statusOnly.setMetadata(new ObjectMetaBuilder().withName(primary.getMetadata().getName())
                .withNamespace(primary.getMetadata().getNamespace()).build());
        statusOnly.setStatus(status);
        return apply(primary, statusOnly, context);
    }

    /**
     * @param primary the resource as the reconcile received it
     * @param statusOnly a fresh object holding only apiVersion, kind, name, namespace and the new status
     * @return the resource as the API server stored it, without managedFields
     */
    public static <P extends HasMetadata> P apply(P primary, P statusOnly, Context<P> context) {
        statusOnly.getMetadata().setResourceVersion(primary.getMetadata().getResourceVersion());
        P updated = context.getClient().resource(statusOnly).subresource("status").patch(new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(context.getControllerConfiguration().fieldManager())
                .withForce(true)
                .build());
        // JOSDK keeps the answer until the watch delivers this version, as many as the store's bound allows, in
        // the form the store keeps.
        SharedStore<P> store = store(context);
        if (store == null) {
            context.eventSourceRetriever().getControllerEventSource()
                    .handleRecentResourceUpdate(ResourceID.fromResource(primary), LeanCache.trim(updated), primary);
        } else if (store.recentWrites().admit(Cache.metaNamespaceKeyFunc(updated), updated)) {
            context.eventSourceRetriever().getControllerEventSource()
                    .handleRecentResourceUpdate(ResourceID.fromResource(primary), store.lean(updated), primary);
        }
        return updated;
    }

    /** The controller's informer store, if it is a {@link SharedStore}. */
    @SuppressWarnings("unchecked")
    private static <P extends HasMetadata> SharedStore<P> store(Context<P> context) {
        var controller = context.getControllerConfiguration();
        var informer = controller == null ? null : controller.getInformerConfig();
        return informer != null && informer.getItemStore() instanceof SharedStore<?> store ? (SharedStore<P>) store
                : null;
    }

}
