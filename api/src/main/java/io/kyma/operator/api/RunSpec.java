package io.kyma.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunSpec {
    @Size(max = 2048)
    @Pattern(Validation.HTTP_URL)
    @JsonPropertyDescription(
            "Base URL of the remote job service (http or https, no credentials, query or fragment); jobs are under <server>/jobs. The operator's default applies when empty.")
    private String server;

    @Required
    private JobSpec job;

    @Size(max = Validation.DURATION_MAX_LENGTH)
    @Pattern(Validation.GO_DURATION)
    @JsonPropertyDescription("How often to poll the job, for example 5s; the operator's default applies when empty.")
    private String pollInterval;

    @Size(max = Validation.DURATION_MAX_LENGTH)
    @Pattern(Validation.GO_DURATION)
    @JsonPropertyDescription("How long the job may run before it is cancelled and the Run fails, for example 10m.")
    private String timeout;

    public String getServer() {
        return server;
    }

    public void setServer(String server) {
        this.server = server;
    }

    public JobSpec getJob() {
        return job;
    }

    public void setJob(JobSpec job) {
        this.job = job;
    }

    public String getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(String pollInterval) {
        this.pollInterval = pollInterval;
    }

    public String getTimeout() {
        return timeout;
    }

    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }
}
