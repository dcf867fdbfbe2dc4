package io.kyma.operator.testing;

import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;

/** Builders for JOSDK's test extension, set up for the embedded control plane. */
public final class OperatorExtensions {
    private OperatorExtensions() {}

    /**
     * A {@link LocallyRunOperatorExtension} builder on a client of the embedded control plane. It does not wait for
     * test namespaces to disappear: without kube-controller-manager nothing ever finalizes a namespace. The
     * operator runs once per test class, in one namespace, because the extension closes its client when it stops.
     */
    public static LocallyRunOperatorExtension.Builder locallyRunOperator() {
        return LocallyRunOperatorExtension.builder()
                .withKubernetesClient(EmbeddedControlPlane.get().newClient())
                .oneNamespacePerClass(true)
                .waitForNamespaceDeletion(false);
    }
}
