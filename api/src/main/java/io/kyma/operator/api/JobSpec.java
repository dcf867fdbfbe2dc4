package io.kyma.operator.api;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** The job to start on the remote service. */
public class JobSpec {
    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("The job's name as the remote service knows it.")
    private String name;

    @JsonPropertyDescription(
            "Parameters passed to the job: at most 64, each value at most 4096 characters, each name at most 253.")
    private Map<String, String> params = new LinkedHashMap<>();

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Map<String, String> getParams() {
        return params;
    }

    public void setParams(Map<String, String> params) {
        this.params = params;
    }
}
