package io.kyma.operator.run;

import java.util.Set;

/**
 * A job as the remote service describes it.
 *
 * @param log the end of the job's log, at most what was asked for when the service knows the tailBytes parameter
 * @param logTruncated whether the service left the start of the log out
 */
public record RemoteJob(String id, String state, String log, boolean logTruncated) {
    /** States that end a job. Any other state, known or not ({@code queued}, say), means it has not ended yet. */
    private static final Set<String> ENDED = Set.of("succeeded", "failed", "cancelled");

    public RemoteJob(String id, String state, String log) {
        this(id, state, log, false);
    }

    public boolean running() {
        return !ENDED.contains(state);
    }

    public boolean succeeded() {
        return "succeeded".equals(state);
    }
}
