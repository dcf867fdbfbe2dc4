package io.kyma.operator.run;

/** A job as the remote service describes it. */
public record RemoteJob(String id, String state, String log, String startedAt, String finishedAt) {
    public boolean running() {
        return "running".equals(state);
    }

    public boolean succeeded() {
        return "succeeded".equals(state);
    }
}
