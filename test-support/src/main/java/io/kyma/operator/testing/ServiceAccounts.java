package io.kyma.operator.testing;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
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

    /**
     * Waits until the API server's authorizer allows the ServiceAccount to get the non-resource {@code path} (a new
     * binding takes a moment to reach it), at most 30 s.
     */
    public static void awaitAllowed(KubernetesClient admin, String namespace, String name, String path)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            SubjectAccessReview review = admin.authorization()
                    .v1()
                    .subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withUser("system:serviceaccount:" + namespace + ":" + name)
                            .withGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace)
                            .withNewNonResourceAttributes()
                            .withVerb("get")
                            .withPath(path)
                            .endNonResourceAttributes()
                            .endSpec()
                            .build());
            if (Boolean.TRUE.equals(review.getStatus().getAllowed())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " may still not get " + path + " after 30 s");
            }
            Thread.sleep(100);
        }
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
