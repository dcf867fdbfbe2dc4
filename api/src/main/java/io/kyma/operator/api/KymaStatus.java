package io.kyma.operator.api;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.kubernetes.api.model.Condition;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class KymaStatus {
    private KymaPhase phase;

    @JsonPropertyDescription("The generation of the spec this status describes.")
    private Long observedGeneration;

    private ComponentCounts components;

    @JsonPropertyDescription("Ready components out of all, for example 12/18.")
    private String readyComponents;

    private List<Condition> conditions = new ArrayList<>();

    public KymaPhase getPhase() {
        return phase;
    }

    public void setPhase(KymaPhase phase) {
        this.phase = phase;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public ComponentCounts getComponents() {
        return components;
    }

    public void setComponents(ComponentCounts components) {
        this.components = components;
    }

    public String getReadyComponents() {
        return readyComponents;
    }

    public void setReadyComponents(String readyComponents) {
        this.readyComponents = readyComponents;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
