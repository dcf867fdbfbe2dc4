package io.kyma.operator.common.status;

/**
 * What a failed call, to the API server or to a job service, says about the next try: the one vocabulary in which
 * every failure is classed ({@link ApiFailure} for the API server, the Run controller for job services).
 */
public enum FailureClass {
    /** Only an edit of the object's spec can help: the status says so, and the object waits for its next generation. */
    SPEC,
    /** Anything else (quota, RBAC, webhook, timeout, 5xx, unreachable, malformed answer): retried with capped backoff. */
    RETRY,
    /** The object or the work is already gone, finished or unknown: the call's purpose is met (a delete, a cancel). */
    GONE,
    /** Optimistic concurrency: the write was based on a stale copy; retried on fresh data. */
    CONFLICT
}
