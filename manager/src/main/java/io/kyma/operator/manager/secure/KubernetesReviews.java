package io.kyma.operator.manager.secure;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** TokenReviews and SubjectAccessReviews (authentication.k8s.io/v1, authorization.k8s.io/v1) through the client. */
public final class KubernetesReviews implements MetricsAccess.Reviews {
    private final KubernetesClient client;

    public KubernetesReviews(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Optional<MetricsAccess.User> authenticate(String token) throws MetricsAccess.ReviewFailedException {
        TokenReview review;
        try {
            review = client.authentication()
                    .v1()
                    .tokenReviews()
                    .create(new TokenReviewBuilder()
                            .withNewSpec()
                            .withToken(token)
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            throw failed("tokenreviews", e);
        }
        if (review.getStatus() == null
                || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
            return Optional.empty();
        }
        UserInfo user = review.getStatus().getUser();
        return Optional.of(new MetricsAccess.User(
                user.getUsername(),
                user.getUid(),
                user.getGroups() == null ? List.of() : List.copyOf(user.getGroups()),
                user.getExtra() == null ? Map.of() : Map.copyOf(user.getExtra())));
    }

    private static MetricsAccess.ReviewFailedException failed(String resource, KubernetesClientException e) {
        return new MetricsAccess.ReviewFailedException(
                e.getCode() == 403
                        ? "the operator may not create " + resource + " (bind the ClusterRole metrics-auth-role to its"
                                + " ServiceAccount)"
                        : "creating a " + resource + " object failed (HTTP " + e.getCode() + "): " + e.getMessage(),
                e);
    }

    @Override
    public boolean allowed(MetricsAccess.User user, String verb, String path)
            throws MetricsAccess.ReviewFailedException {
        SubjectAccessReview review;
        try {
            review = client.authorization()
                    .v1()
                    .subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withUser(user.name())
                            .withUid(user.uid())
                            .withGroups(user.groups())
                            .withExtra(user.extra())
                            .withNewNonResourceAttributes()
                            .withVerb(verb)
                            .withPath(path)
                            .endNonResourceAttributes()
                            .endSpec()
                            .build());
        } catch (KubernetesClientException e) {
            throw failed("subjectaccessreviews", e);
        }
        return review.getStatus() != null
                && Boolean.TRUE.equals(review.getStatus().getAllowed());
    }
}
