package io.kyma.operator.run;

import java.util.Map;

/** The remote job service's API as the Run controller uses it: {@link RemoteJobClient}, or a fake in tests. */
public interface JobService {
    /** Starts a job, or finds the one already started with the same idempotency key; returns its id. */
    String start(JobServerUrl server, String name, Map<String, String> params, String idempotencyKey)
            throws RemoteJobException;

    /** A job, its log limited to the last {@code tailBytes} bytes. */
    RemoteJob get(JobServerUrl server, String id, int tailBytes) throws RemoteJobException;

    /** Cancels a job; one the service does not know is already gone. */
    void cancel(JobServerUrl server, String id) throws RemoteJobException;
}
