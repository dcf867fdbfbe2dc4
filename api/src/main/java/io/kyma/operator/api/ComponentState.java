package io.kyma.operator.api;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The installation lifecycle of a HelmComponent, in the order it is walked. */
public enum ComponentState {
    @JsonProperty("pending")
    PENDING,
    @JsonProperty("started")
    STARTED,
    @JsonProperty("failing")
    FAILING,
    @JsonProperty("retrying")
    RETRYING,
    @JsonProperty("success")
    SUCCESS;

    /** The name as it appears in the API, for example {@code pending}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
