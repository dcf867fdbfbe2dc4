package io.kyma.operator.run;

import io.kyma.operator.common.status.FailureClass;

/**
 * The Run controller's decisions as a state machine: a Run's {@link State}, derived from its status and deletion
 * timestamp (and, before its status records a job, from whether a start was answered), and an {@link Event} observed
 * in one reconcile lead to the next state and the one {@link Action} the reconciler carries out. Pure: no I/O, no
 * clock; every pair of state and event has an answer.
 */
final class RunMachine {
    private RunMachine() {}

    enum State {
        /** No job yet: none asked for, or a start asked for and not answered. */
        NEW,
        /** A start answered with a job that the status does not record yet. */
        STARTED,
        /** The job the status records, followed by polls on the server recorded with it. */
        RUNNING,
        /** The job is being cancelled (past its timeout, its spec no longer carried out, its answers unusable). */
        CANCELLING,
        /** Succeeded or Failed: nothing is due. */
        ENDED,
        /** Deleted: a job, or a start out, to cancel or withdraw before the Run goes. */
        DELETING
    }

    enum Event {
        /** Nothing new: a timer, a spec edit, a recheck. */
        NOTHING,
        /** The spec can no longer be carried out. */
        SPEC_INVALID,
        /** Past spec.timeout (a running job: after its last look), or, deleting, past the cleanup timeout. */
        DEADLINE,
        /** A start answered with a job. */
        STARTED,
        /** A poll says the job runs. */
        RUNNING,
        /** A poll says the job ended, or a cancel was taken (or the job is already gone or finished). */
        DONE,
        /** The job service does not know the job. */
        GONE,
        /** A failure that another try may cure, within its bound (backoff; bad answers capped; cancels bounded). */
        RETRY,
        /** A failure no try cures: refused, too large, not allowed, or past its bound. */
        GIVE_UP
    }

    enum Action {
        /** Ask for a start, after the backoff of the failures before. */
        ASK_START,
        /** Write the started job into the status, and ask for its first poll. */
        RECORD,
        /** Ask for the next poll when it is due. */
        ASK_POLL,
        /** Write what the poll says (paced), and ask for the next poll. */
        PROGRESS,
        /** Write what blocks progress (server, answer), and ask for the call again after the backoff, as NOTHING would. */
        BLOCKED,
        /** Write why the job is cancelled, and ask for the cancel. */
        BEGIN_CANCEL,
        /** Ask for the cancel (again, after the backoff). */
        ASK_CANCEL,
        /** Write the Run's outcome: the job's end, or the cancel's. */
        OUTCOME,
        /** End the Run Failed; a start not sent yet is withdrawn first, a start out waited for. */
        FAIL,
        /** Deleting: cancel the job, or withdraw a start not sent, or wait for one out. */
        CLEAN_UP,
        /** Deleting: let the Run go. */
        RELEASE,
        /** Drop what is kept for the Run. */
        FORGET
    }

    record Step(State next, Action action) {}

    static Step next(State state, Event event) {
        return switch (state) {
            case NEW ->
                switch (event) {
                    case SPEC_INVALID, DEADLINE, GONE, GIVE_UP -> new Step(State.ENDED, Action.FAIL);
                    case STARTED -> new Step(State.RUNNING, Action.RECORD);
                    case RETRY -> new Step(State.NEW, Action.BLOCKED);
                    case NOTHING, RUNNING, DONE -> new Step(State.NEW, Action.ASK_START);
                };
            case STARTED ->
                switch (event) {
                    case SPEC_INVALID, DEADLINE -> new Step(State.CANCELLING, Action.BEGIN_CANCEL);
                    default -> new Step(State.RUNNING, Action.RECORD);
                };
            case RUNNING ->
                switch (event) {
                    case NOTHING, STARTED -> new Step(State.RUNNING, Action.ASK_POLL);
                    case RUNNING -> new Step(State.RUNNING, Action.PROGRESS);
                    case DONE -> new Step(State.ENDED, Action.OUTCOME);
                    case RETRY -> new Step(State.RUNNING, Action.BLOCKED);
                    case GONE -> new Step(State.ENDED, Action.FAIL);
                    case SPEC_INVALID, DEADLINE, GIVE_UP -> new Step(State.CANCELLING, Action.BEGIN_CANCEL);
                };
            case CANCELLING ->
                switch (event) {
                    case DONE, GONE, GIVE_UP -> new Step(State.ENDED, Action.OUTCOME);
                    case RETRY -> new Step(State.CANCELLING, Action.BLOCKED);
                    default -> new Step(State.CANCELLING, Action.ASK_CANCEL);
                };
            case ENDED -> new Step(State.ENDED, Action.FORGET);
            case DELETING ->
                switch (event) {
                    case DONE, GONE, GIVE_UP, DEADLINE -> new Step(State.ENDED, Action.RELEASE);
                    case RETRY -> new Step(State.DELETING, Action.BLOCKED);
                    default -> new Step(State.DELETING, Action.CLEAN_UP);
                };
        };
    }

    /** What a failed call means: the job is gone, another try may cure it (while {@code retryable}), or none can. */
    static Event failed(FailureClass failureClass, boolean retryable) {
        return switch (failureClass) {
            case GONE -> Event.GONE;
            case RETRY -> retryable ? Event.RETRY : Event.GIVE_UP;
            default -> Event.GIVE_UP;
        };
    }

    /**
     * A running job's event once its deadline passed: a job that ended is reported as it ended, even seen late; else
     * it is cancelled once a look after the deadline was had or the last look's time is over ({@code looked}), and
     * until then a job seen running is looked at again.
     */
    static Event pastDeadline(Event polled, boolean looked) {
        if (polled == Event.DONE) {
            return Event.DONE;
        }
        return looked ? Event.DEADLINE : polled == Event.RUNNING ? Event.NOTHING : polled;
    }
}
