package io.kyma.operator.run;

import io.kyma.operator.common.status.FailureClass;

/** A remote job service call that did not give a usable answer. */
public class RemoteJobException extends Exception {
    /** What went wrong, which decides what the controller does next. */
    public enum Kind {
        /** Connection refused, reset or timed out: try again later. */
        UNREACHABLE,
        /** A 5xx answer: try again later. */
        SERVER_ERROR,
        /** A job-API answer that breaks the protocol: tried again, at most {@code MAX_BAD_ANSWERS} times in a row. */
        BAD_ANSWER,
        /** A start the service took (2xx) without a usable job id: never sent again. */
        BAD_START,
        /** A 4xx answer to starting a job: the job was refused, and retrying will not help. */
        REJECTED,
        /** The job id is unknown to the server. */
        NOT_FOUND,
        /** An answer larger than the response limit: the service is not one the operator can use. */
        TOO_LARGE,
        /** The server resolves to an address the operator does not call. */
        NOT_ALLOWED
    }

    private final Kind kind;

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

    public Kind kind() {
        return kind;
    }

    /** The CamelCase reason a status shows for this failure. */
    public String reason() {
        return switch (kind) {
            case UNREACHABLE -> "Unreachable";
            case SERVER_ERROR -> "ServerError";
            case BAD_ANSWER -> "BadAnswer";
            case BAD_START -> "StartNotUnderstood";
            case REJECTED -> "Rejected";
            case NOT_FOUND -> "JobLost";
            case TOO_LARGE -> "AnswerTooLarge";
            case NOT_ALLOWED -> "ServerNotAllowed";
        };
    }

    /** What the failure says about the next try: gone (the job is unknown), spec (give up) or retry. */
    public FailureClass failureClass() {
        return switch (kind) {
            case UNREACHABLE, SERVER_ERROR, BAD_ANSWER -> FailureClass.RETRY;
            case NOT_FOUND -> FailureClass.GONE;
            case REJECTED, BAD_START, TOO_LARGE, NOT_ALLOWED -> FailureClass.SPEC;
        };
    }

    /** Whether a later attempt may succeed. */
    public boolean transientFailure() {
        return failureClass() == FailureClass.RETRY;
    }
}
