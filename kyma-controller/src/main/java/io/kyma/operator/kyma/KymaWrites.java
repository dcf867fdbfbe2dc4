package io.kyma.operator.kyma;

import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.status.StatusPatch;

/**
 * Everything the Kyma controller sends to the API server. Failures are the client's {@link KubernetesClientException}
 * with the API server's code, so that the reconciler's decisions on them can be tested with a fake.
 */
public interface KymaWrites {
    HelmComponent create(HelmComponent desired);

    /** The component of that name, or null. */
    HelmComponent get(String namespace, String name);

    /** Makes the component's spec the module's: its module name and version. */
    void setSpec(HelmComponent current, Module module);

    /** Puts {@code labels} on the component, keeping its others. */
    void relabel(HelmComponent existing, Map<String, String> labels);

    void delete(HelmComponent component);

    void status(Kyma kyma, KymaStatus status);

    /** The real thing: the reconcile's client, with created components and written statuses put into the caches. */
    static KymaWrites of(Context<Kyma> context, OwnedComponents components) {
        return new KymaWrites() {
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
            public void setSpec(HelmComponent current, Module module) {
                context.getClient().resource(current).edit(c -> {
                    c.getSpec().setModule(module.getName());
                    c.getSpec().setVersion(module.getVersion());
                    return c;
                });
            }

            @Override
            public void relabel(HelmComponent existing, Map<String, String> labels) {
                context.getClient().resource(existing).edit(c -> {
                    c.getMetadata().getLabels().putAll(labels);
                    return c;
                });
            }

            @Override
            public void delete(HelmComponent component) {
                context.getClient().resource((HasMetadata) component).delete();
            }

            @Override
            public void status(Kyma kyma, KymaStatus status) {
                StatusPatch.apply(kyma, Kyma::new, status, context);
            }
        };
    }
}
