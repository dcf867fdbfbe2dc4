package io.kyma.operator.api;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.kubernetes.api.model.Condition;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunStatus {
    private RunPhase phase;

    @JsonPropertyDescription("The job's id on the remote service.")
    private String remoteId;

    @JsonPropertyDescription(
            "The job service the job was started on: polls and cancels go there, whatever spec.server says later.")
    private String server;

    @JsonPropertyDescription(
            "The address the job's start connected to, when the server is named by a host name: polls and cancels connect there, wherever the name points later.")
    private String serverAddress;

    private String startTime;
    private String completionTime;

    @JsonPropertyDescription("The tail of the job's log, at most 32 KiB.")
    private String logs;

    @JsonPropertyDescription("True when older log lines were dropped to keep the tail bounded.")
    private Boolean logsTruncated;

    private String message;
    private Long observedGeneration;
    private List<Condition> conditions = new ArrayList<>();

    public RunPhase getPhase() {
        return phase;
    }

    public void setPhase(RunPhase phase) {
        this.phase = phase;
    }

    public String getRemoteId() {
        return remoteId;
    }

    public void setRemoteId(String remoteId) {
        this.remoteId = remoteId;
    }

    public String getServer() {
        return server;
    }

    public void setServer(String server) {
        this.server = server;
    }

    public String getServerAddress() {
        return serverAddress;
    }

    public void setServerAddress(String serverAddress) {
        this.serverAddress = serverAddress;
    }

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public String getLogs() {
        return logs;
    }

    public void setLogs(String logs) {
        this.logs = logs;
    }

    public Boolean getLogsTruncated() {
        return logsTruncated;
    }

    public void setLogsTruncated(Boolean logsTruncated) {
        this.logsTruncated = logsTruncated;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
