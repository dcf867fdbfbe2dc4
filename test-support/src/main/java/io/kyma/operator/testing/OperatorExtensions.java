package io.kyma.operator.testing;

import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;

/** Builders for JOSDK's test extension, set up for the embedded control plane. */
public final class OperatorExtensions {
    private OperatorExtensions() {
    }

    /**
     * A {@link LocallyRunOperatorExtension} builder on a client of the embedded control plane. It does not wait for
     * test namespaces to disappear: without kube-controller-manager nothing ever finalizes a namespace.
     */
    public static LocallyRunOperatorExtension.Builder locallyRunOperator() {
        return LocallyRunOperatorExtension.builder()
                .withKubernetesClient(EmbeddedControlPlane.get().newClient())
                .waitForNamespaceDeletion(false);
    }
}
