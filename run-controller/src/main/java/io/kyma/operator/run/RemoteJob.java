package io.kyma.operator.run;

import java.util.Locale;
import java.util.Set;

/**
 * A job as the remote service describes it.
 *
 * @param state the job's state as the service sent it, as the status shows it
 * @param log the end of the job's log as the status shows it: at most {@link LogTail#MAX_BYTES} bytes of UTF-8, from
 *        a line start, normalised as the API server stores text
 * @param logTruncated whether the start of the log was left out (by the service, or by the cut to the tail)
 */
public record RemoteJob(String id, String state, String log, boolean logTruncated) {
    /**
     * States that end a job, read without case or surrounding white space, {@code canceled} as {@code cancelled}. Any
     * other state, known or not ({@code queued}, say), means it has not ended yet.
     */
    private static final Set<String> ENDED = Set.of("succeeded", "failed", "cancelled");

    /** The state as the job API words it. */
    private String word() {
        String word = state == null ? "" : state.strip().toLowerCase(Locale.ROOT);
        return word.equals("canceled") ? "cancelled" : word;
    }

    public boolean running() {
        return !ENDED.contains(word());
    }

    public boolean succeeded() {
        return word().equals("succeeded");
    }

    public boolean cancelled() {
        return word().equals("cancelled");
    }
}
