package io.kyma.operator.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Test namespaces on the embedded control plane, which never deletes one (it has no namespace controller). */
public final class Namespaces {
    private Namespaces() {}

    /** Creates the namespace unless it exists; returns its name. */
    public static String apply(KubernetesClient client, String name) {
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .serverSideApply();
        return name;
    }
}
