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
     * The state that ended the job, as the job API words it ({@code succeeded}, {@code failed} or {@code cancelled}),
     * read without case or surrounding white space and {@code canceled} as {@code cancelled}; empty for any other
     * state, known or not ({@code queued}, say), which means the job has not ended yet.
     */
    public String ended() {
        String word = state.strip().toLowerCase(Locale.ROOT).replace("canceled", "cancelled");
        return Set.of("succeeded", "failed", "cancelled").contains(word) ? word : "";
    }

    public boolean running() {
        return ended().isEmpty();
    }
}
