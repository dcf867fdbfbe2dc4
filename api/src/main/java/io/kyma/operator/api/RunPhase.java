package io.kyma.operator.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The phase of a Run; absent until the remote job has been started. */
public enum RunPhase {
    /** Started remotely, not ended yet. */
    @JsonProperty("Running")
    RUNNING,
    /**
     * What operators before 0.1.0 wrote for a started job: read as {@link #RUNNING}, never written, kept in the schema
     * so that such Runs stay valid.
     */
    @JsonProperty("Unknown")
    UNKNOWN,
    @JsonProperty("Succeeded")
    SUCCEEDED,
    @JsonProperty("Failed")
    FAILED;

    /** Whether the job has ended, one way or the other. */
    public boolean ended() {
        return this == SUCCEEDED || this == FAILED;
    }
}
