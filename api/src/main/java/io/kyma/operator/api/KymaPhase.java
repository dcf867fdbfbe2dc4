package io.kyma.operator.api;

import com.fasterxml.jackson.annotation.JsonProperty;

public enum KymaPhase {
    @JsonProperty("Processing")
    PROCESSING,
    @JsonProperty("Ready")
    READY,
    @JsonProperty("Error")
    ERROR,
    @JsonProperty("Deleting")
    DELETING
}
