package io.kyma.operator.run;

/** A remote job service call that did not give a usable answer. */
public class RemoteJobException extends Exception {
    /** What went wrong, which decides what the controller does next. */
    public enum Kind {
        /** Connection refused, reset or timed out: try again later. */
        UNREACHABLE,
        /** A 5xx answer: try again later. */
        SERVER_ERROR,
        /** An answer that is not the JSON expected: try again later. */
        BAD_ANSWER,
        /** A 4xx answer to starting a job: the job was refused, and retrying will not help. */
        REJECTED,
        /** The job id is unknown to the server. */
        NOT_FOUND
    }

    private final Kind kind;

    public RemoteJobException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether a later attempt may succeed. */
    public boolean transientFailure() {
        return kind == Kind.UNREACHABLE || kind == Kind.SERVER_ERROR || kind == Kind.BAD_ANSWER;
    }
}
