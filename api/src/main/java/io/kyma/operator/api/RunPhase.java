package io.kyma.operator.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The phase of a Run; absent until the remote job has been started. */
public enum RunPhase {
    /** Started remotely, outcome not known yet. */
    @JsonProperty("Unknown")
    UNKNOWN,
    @JsonProperty("Succeeded")
    SUCCEEDED,
    @JsonProperty("Failed")
    FAILED
}
