package io.kyma.operator.common.status;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Failed API-server calls, permanent or transient. A 4xx answer other than 404 (not found), 409 (conflict) and 429 (too
 * many requests) says that the request itself is wrong (forbidden, invalid, too large) and will fail again however
 * often it is retried; everything else may pass on a later try: 404 because a kube-apiserver that has just started
 * answers it for custom resources until it has loaded their CRDs, and a namespace may be on its way.
 */
public final class ApiFailure {
    /** The longest part of the API server's message shown in a status. */
    static final int MAX_MESSAGE = 300;

    private ApiFailure() {}

    public static boolean permanent(Throwable failure) {
        return failure instanceof KubernetesClientException e
                && e.getCode() >= 400
                && e.getCode() < 500
                && e.getCode() != 404
                && e.getCode() != 409
                && e.getCode() != 429;
    }

    /** The API server's CamelCase reason (Forbidden, Invalid, NotFound, ...), or one made from the code. */
    public static String reason(KubernetesClientException e) {
        String reason = e.getStatus() == null ? null : e.getStatus().getReason();
        return reason == null || reason.isBlank() || !reason.matches("[A-Za-z]+") ? "Http" + e.getCode() : reason;
    }

    /** What the API server said, shortened for a status. */
    public static String describe(KubernetesClientException e) {
        String message = e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
        message = message == null ? "" : message.replaceAll("\\s+", " ");
        return "the API server answered " + e.getCode() + ": "
                + (message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message);
    }
}
