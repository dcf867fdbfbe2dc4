package io.kyma.operator.run;

import io.kyma.operator.common.status.FailureClass;

/** A remote job service call that did not give a usable answer. */
public class RemoteJobException extends RuntimeException {
    /** What went wrong, which decides what the controller does next. */
    public enum Kind {
        /** Connection refused, reset or timed out, or an answer that is not the job API's: try again later. */
        UNREACHABLE("Unreachable", FailureClass.RETRY),
        /** A 5xx answer, or one that says "not now": try again later. */
        SERVER_ERROR("ServerError", FailureClass.RETRY),
        /** A job-API answer that breaks the protocol: tried again, at most a few times in a row. */
        BAD_ANSWER("BadAnswer", FailureClass.RETRY),
        /** A start the service took (2xx, 303 or 409, as the client reads them) without a usable id: not resent. */
        BAD_START("StartNotUnderstood", FailureClass.SPEC),
        /** A 4xx answer to starting a job: the job was refused, and retrying will not help. */
        REJECTED("Rejected", FailureClass.SPEC),
        /** The job id is unknown to the server. */
        NOT_FOUND("JobLost", FailureClass.GONE),
        /** An answer larger than the response limit: the service is not one the operator can use. */
        TOO_LARGE("AnswerTooLarge", FailureClass.SPEC),
        /** The server resolves to an address the operator does not call. */
        NOT_ALLOWED("ServerNotAllowed", FailureClass.SPEC);

        private final String reason;
        private final FailureClass failureClass;

        Kind(String reason, FailureClass failureClass) {
            this.reason = reason;
            this.failureClass = failureClass;
        }
    }

    private final Kind kind;

    public RemoteJobException(Kind kind, String message) {
        this(kind, message, null);
    }

    public RemoteJobException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /**
     * The failure a future of {@link JobService} ended with, unwrapped; anything that is not one (a bug, a cancelled
     * call) counts as an unreachable service.
     */
    public static RemoteJobException of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RemoteJobException remote) {
                return remote;
            }
        }
        return new RemoteJobException(Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, failure);
    }

    /** A server that did not answer as a job service, said in one message whatever the cause. */
    static RemoteJobException unreachable() {
        return new RemoteJobException(Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE);
    }

    public Kind kind() {
        return kind;
    }

    /** The CamelCase reason a status shows for this failure. */
    public String reason() {
        return kind.reason;
    }

    /** What the failure says about the next try: gone (the job is unknown), spec (give up) or retry. */
    public FailureClass failureClass() {
        return kind.failureClass;
    }
}
