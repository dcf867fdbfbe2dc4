package io.kyma.operator.run;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The remote job service's API as the Run controller uses it: {@link RemoteJobClient}, or a fake in tests. Every call
 * returns at once; its answer completes the future later, on a thread that is not a reconcile worker, and a failure
 * completes it with a {@link RemoteJobException}.
 */
public interface JobService {
    /**
     * Starts a job, or finds the one already started with the same idempotency key; completes with its id and the
     * server to follow it on.
     */
    CompletableFuture<Start> start(JobServerUrl server, String name, Map<String, String> params, String idempotencyKey);

    /** A job, its log limited to the last {@code tailBytes} bytes. */
    CompletableFuture<RemoteJob> get(JobServerUrl server, String id, int tailBytes);

    /** Cancels a job; one the service does not know is already gone. */
    CompletableFuture<Void> cancel(JobServerUrl server, String id);

    /**
     * A job a start made: its id, and its server, pinned to the address the start connected to when it connected to
     * an address it looked up (polls and cancels go there too).
     */
    record Start(String id, JobServerUrl server) {}
}
