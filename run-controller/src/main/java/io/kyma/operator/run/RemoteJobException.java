package io.kyma.operator.run;

/** A remote job service call that did not give a usable answer. */
public class RemoteJobException extends Exception {
    /** What went wrong, which decides what the controller does next. */
    public enum Kind {
        /** Connection refused, reset or timed out: try again later. */
        UNREACHABLE,
        /** A 5xx answer: try again later. */
        SERVER_ERROR,
        /** An answer that is not the job API's JSON: try again later (a proxy may stand in for a while). */
        BAD_ANSWER,
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
            case REJECTED -> "Rejected";
            case NOT_FOUND -> "JobLost";
            case TOO_LARGE -> "AnswerTooLarge";
            case NOT_ALLOWED -> "ServerNotAllowed";
        };
    }

    /** Whether a later attempt may succeed. */
    public boolean transientFailure() {
        return kind == Kind.UNREACHABLE || kind == Kind.SERVER_ERROR || kind == Kind.BAD_ANSWER;
    }
}
