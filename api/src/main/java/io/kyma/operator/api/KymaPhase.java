package io.kyma.operator.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;

public enum KymaPhase {
    /** Waiting in line for the operator's write budget; its components are not created yet. */
    @JsonProperty("Pending")
    PENDING,
    @JsonProperty("Processing")
    PROCESSING,
    @JsonProperty("Ready")
    READY,
    @JsonProperty("Error")
    ERROR,
    @JsonProperty("Deleting")
    DELETING;

    /** The name as it appears in the API, for example {@code Processing}. */
    @Override
    public String toString() {
        return name().charAt(0) + name().substring(1).toLowerCase(Locale.ROOT);
    }
}
