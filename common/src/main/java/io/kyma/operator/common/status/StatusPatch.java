package io.kyma.operator.common.status;

import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;

/**
 * Writes a primary resource's status by server-side apply and puts the answer into the controller's cache.
 * <p>
 * JOSDK 5.2.3 discards the answer of an {@code UpdateControl.patchStatus}, so a timer-driven reconcile that runs
 * before the watch event arrives would see the old status and could write the same transition twice. The patch
 * carries the cached resourceVersion: if anything else changed the resource meanwhile it fails with 409 and the
 * reconcile is retried on fresh data instead of overwriting it. The request is the one JOSDK's
 * {@code PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource} sends; that helper is not used because on a 409
 * it sends the status computed from the stale resource again, after polling the cache on the reconcile's thread, and
 * it caches whole objects, where the stores here keep lean ones within a bound.
 */
public final class StatusPatch {
    private StatusPatch() {}

    /**
     * Writes {@code status} as the status of {@code primary}, through a fresh object that holds only the name,
     * namespace and status, so that server-side apply claims nothing else.
     *
     * @param fresh makes an empty object of the primary's type
     */
    public static <S, P extends CustomResource<?, S>> P apply(
            P primary, Supplier<P> fresh, S status, Context<P> context) {
        P statusOnly = fresh.get();
        statusOnly.setMetadata(new ObjectMetaBuilder()
                .withName(primary.getMetadata().getName())
                .withNamespace(primary.getMetadata().getNamespace())
                .build());
        statusOnly.setStatus(status);
        return apply(primary, statusOnly, context);
    }

    /**
     * @param primary the resource as the reconcile received it
     * @param statusOnly a fresh object holding only apiVersion, kind, name, namespace and the new status
     * @return the resource as the API server stored it, without managedFields
     */
    public static <P extends HasMetadata> P apply(P primary, P statusOnly, Context<P> context) {
        P updated = write(
                context.getClient(),
                primary,
                statusOnly,
                context.getControllerConfiguration().fieldManager());
        // JOSDK keeps the answer until the watch delivers this version, as many as the store's bound allows, in
        // the form the store keeps.
        SharedStore<P> store = SharedStore.of(context);
        if (store == null) {
            context.eventSourceRetriever()
                    .getControllerEventSource()
                    .handleRecentResourceUpdate(ResourceID.fromResource(primary), LeanCache.trim(updated), primary);
            return updated;
        }
        P lean = store.lean(updated);
        if (store.recentWrites().admit(Cache.metaNamespaceKeyFunc(updated), lean)) {
            context.eventSourceRetriever()
                    .getControllerEventSource()
                    .handleRecentResourceUpdate(ResourceID.fromResource(primary), lean, primary);
        }
        return updated;
    }

    /**
     * Writes the status of {@code statusOnly} over that of {@code primary} by server-side apply, guarded by the
     * primary's resourceVersion.
     *
     * @return the answer of the API server
     */
    public static <P extends HasMetadata> P write(
            KubernetesClient client, P primary, P statusOnly, String fieldManager) {
        // fabric8's own path, as JOSDK's PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource sends it
        statusOnly.getMetadata().setResourceVersion(primary.getMetadata().getResourceVersion());
        try {
            return client.resource(statusOnly)
                    .subresource("status")
                    .patch(new PatchContext.Builder()
                            .withForce(true)
                            .withFieldManager(fieldManager)
                            .withPatchType(PatchType.SERVER_SIDE_APPLY)
                            .build());
        } catch (KubernetesClientException e) {
            throw new Refused(e);
        }
    }

    /**
     * A status write the API server refused or did not answer, with its code and answer: marked, because a status
     * the operator computed is never the tenant's to fix ({@link ApiFailure#classify}).
     */
    public static final class Refused extends KubernetesClientException {
        private final transient KubernetesClientException cause;

        public Refused(KubernetesClientException cause) {
            // fabric8 offers no public constructor with a code and a cause but one that needs the request
            super(cause.getMessage(), cause.getCode(), cause.getStatus());
            this.cause = cause;
        }

        @Override
        public synchronized Throwable getCause() {
            return cause;
        }
    }
}
