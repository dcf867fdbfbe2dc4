package io.kyma.operator.kyma;

import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.status.StatusPatch;

/**
 * Everything the Kyma controller sends to the API server. Failures are the client's {@link KubernetesClientException}
 * with the API server's code, so that the reconciler's decisions on them can be tested with a fake.
 */
public interface KymaWrites {
    HelmComponent create(HelmComponent desired);

    /** The component of that name, or null. */
    HelmComponent get(String namespace, String name);

    /**
     * Sets the operator's fields of a component back (see {@link ChildDrift.Restore}), leaving all others; refused
     * with 409 if the component changed since the version the restore is based on.
     *
     * @return the component as the API server stored it: admission (a mutating webhook) may have changed the write
     */
    HelmComponent restore(HelmComponent existing, ChildDrift.Restore restore);

    /**
     * Deletes that version of the component: refused with 409 if the API server's object of that name is not it (a
     * precondition on its resourceVersion, which a same-name replacement or any later write changes). One that is gone
     * already counts as deleted.
     */
    void delete(HelmComponent component);

    /** The uid of the API server's Kyma of that name, read afresh; empty if there is none. */
    Optional<String> liveUid(String namespace, String name);

    void status(Kyma kyma, KymaStatus status);

    /** The real thing: the reconcile's client, with created components and written statuses put into the caches. */
    static KymaWrites of(Context<Kyma> context, OwnedComponents components) {
        return new KymaWrites() {
            private static final ObjectMapper JSON = new ObjectMapper();

            @Override
            public HelmComponent create(HelmComponent desired) {
                HelmComponent created = context.getClient().resource(desired).create();
                components.created(created);
                return created;
            }

            @Override
            public HelmComponent get(String namespace, String name) {
                return context.getClient()
                        .resources(HelmComponent.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get();
            }

            @Override
            public HelmComponent restore(HelmComponent existing, ChildDrift.Restore restore) {
                // a JSON merge patch: labels merge by key, a null spec field is removed
                ObjectNode patch = JSON.createObjectNode();
                ObjectNode metadata = patch.putObject("metadata");
                if (restore.resourceVersion() != null) {
                    metadata.put("resourceVersion", restore.resourceVersion());
                }
                ObjectNode labels = metadata.putObject("labels");
                restore.labels().forEach(labels::put);
                if (restore.owners() != null) {
                    metadata.set("ownerReferences", JSON.valueToTree(restore.owners()));
                }
                ObjectNode spec = patch.putObject("spec");
                spec.put("kyma", restore.spec().getKyma());
                spec.put("module", restore.spec().getModule());
                spec.put("version", restore.spec().getVersion());
                return context.getClient()
                        .resources(HelmComponent.class)
                        .inNamespace(existing.getMetadata().getNamespace())
                        .withName(existing.getMetadata().getName())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            }

            @Override
            public void delete(HelmComponent component) {
                try {
                    var named = context.getClient()
                            .resources(HelmComponent.class)
                            .inNamespace(component.getMetadata().getNamespace())
                            .withName(component.getMetadata().getName());
                    String version = component.getMetadata().getResourceVersion();
                    if (version == null) {
                        named.delete();
                    } else {
                        named.lockResourceVersion(version).delete();
                    }
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404) {
                        throw e;
                    }
                }
            }

            @Override
            public Optional<String> liveUid(String namespace, String name) {
                // a list by name: the role grants list on Kymas, not get
                return context
                        .getClient()
                        .resources(Kyma.class)
                        .inNamespace(namespace)
                        .withField("metadata.name", name)
                        .list()
                        .getItems()
                        .stream()
                        .map(live -> live.getMetadata().getUid())
                        .findFirst();
            }

            @Override
            public void status(Kyma kyma, KymaStatus status) {
                StatusPatch.apply(kyma, Kyma::new, status, context);
            }
        };
    }
}
