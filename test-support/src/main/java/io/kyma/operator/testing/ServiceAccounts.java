package io.kyma.operator.testing;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** ServiceAccounts as the API server authenticates them: a token of their own, and a ClusterRole bound to one. */
public final class ServiceAccounts {
    private ServiceAccounts() {}

    /** Creates the ServiceAccount unless it exists, then asks for an hour's token of it (TokenRequest). */
    public static String token(KubernetesClient admin, String namespace, String name) {
        Namespaces.apply(admin, namespace);
        admin.resource(new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withNamespace(namespace)
                        .withName(name)
                        .endMetadata()
                        .build())
                .serverSideApply();
        return admin.serviceAccounts()
                .inNamespace(namespace)
                .withName(name)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(3600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
    }

    /** Binds {@code clusterRole} to the ServiceAccount, cluster-wide. */
    public static void bind(KubernetesClient admin, String namespace, String name, String clusterRole) {
        admin.resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(clusterRole + "-" + namespace + "-" + name)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", clusterRole)
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withNamespace(namespace)
                        .withName(name)
                        .endSubject()
                        .build())
                .serverSideApply();
    }
}
