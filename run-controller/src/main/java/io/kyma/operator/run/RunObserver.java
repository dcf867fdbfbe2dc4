package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;
import io.kyma.operator.run.RunMachine.Event;
import io.kyma.operator.run.RunMachine.State;

/**
 * What one reconcile of a Run sees, for {@link RunMachine}: the Run's state, derived from its status and deletion
 * timestamp (and, before the status records a job, from the start its memory keeps), and the event: the answer its
 * state waits for, taken from {@link JobCalls} into its {@link RunMemory}; a deadline passed; a spec it cannot carry
 * out.
 */
final class RunObserver {
    private final Clock clock;
    private final RunSettings settings;
    private final JobCalls calls;
    private final RunMemory memory;

    RunObserver(Clock clock, RunSettings settings, JobCalls calls, RunMemory memory) {
        this.clock = clock;
        this.settings = settings;
        this.calls = calls;
        this.memory = memory;
    }

    /** What one reconcile saw: the Run's state and the event, with what they carry. */
    record Seen(
            State state,
            Event event,
            String id,
            JobServerUrl server,
            RunPlan plan,
            RunPlan.Invalid invalid,
            Done<?> answer,
            RunMemory.Of mem) {
        RemoteJobException failure() {
            return answer == null ? null : answer.failure();
        }

        /** The reason and message a Run ends Failed with (or its job is cancelled for), for what the machine saw. */
        String[] why() {
            if (invalid() != null) {
                return new String[] {invalid().reason(), invalid().getMessage()};
            }
            RemoteJobException e = failure();
            if (event() == Event.DEADLINE || e == null) {
                return new String[] {
                    RunStatuses.REASON_TIMEOUT,
                    RunStatuses.timedOut(state(), plan().timeout().orElseThrow())
                };
            }
            return new String[] {
                e.reason(),
                capped(mem(), e)
                        ? "gave up after " + RunReconciler.MAX_BAD_ANSWERS + " bad answers in a row; the last: "
                                + e.getMessage()
                        : e.getMessage()
            };
        }
    }

    /** Derives the Run's state, and takes the answer its state waits for. */
    Seen observe(Run run) {
        RunStatus status = run.getStatus();
        Instant now = clock.instant();
        RunMemory.Of mem = memory.of(run);
        boolean replan = RunStatuses.failedBeforeStart(run);
        boolean recorded = status != null && status.getRemoteId() != null && !replan;
        Optional<Done<Object>> start = recorded ? Optional.empty() : take(run, mem, Kind.START);
        JobService.Start started = recorded || mem.started == null ? null : mem.started.value();
        String id = recorded ? status.getRemoteId() : started == null ? null : started.id();
        if (run.getMetadata().getDeletionTimestamp() != null) {
            JobServerUrl server = started == null ? null : started.server();
            if (recorded) {
                try {
                    server = ended(status) ? null : RunPlan.startedOn(run, settings);
                } catch (RunPlan.Invalid invalid) {
                    id = null; // nothing it can name
                }
                if (server == null) {
                    return new Seen(State.DELETING, Event.DONE, id, null, null, null, null, mem);
                }
            }
            Optional<Done<Object>> cancel = take(run, mem, Kind.CANCEL);
            boolean left = now.isBefore(deletedAt(run, now).plus(settings.cleanupTimeout()));
            Event event = cancel.map(c -> c.failed() ? failed(c, left, mem) : Event.DONE)
                    .orElse(left ? Event.NOTHING : Event.DEADLINE);
            return new Seen(State.DELETING, event, id, server, null, null, cancel.orElse(null), mem);
        }
        if (ended(status) && !replan) {
            return new Seen(State.ENDED, Event.NOTHING, id, null, null, null, null, mem);
        }
        RunPlan plan = null;
        RunPlan.Invalid invalid = null;
        try {
            plan = recorded ? RunPlan.following(run, settings) : RunPlan.of(run, settings);
        } catch (RunPlan.Invalid e) {
            invalid = e;
        }
        JobServerUrl server = plan != null
                ? plan.server()
                : recorded ? RunPlan.recorded(run, settings).orElse(null) : null;
        if (recorded && RunStatuses.cancelling(status).isPresent()) {
            Optional<Done<Object>> cancel = take(run, mem, Kind.CANCEL);
            boolean left = now.isBefore(mem.first.getOrDefault(Kind.CANCEL, now).plus(settings.cleanupTimeout()));
            Event event = server == null
                    ? Event.GIVE_UP
                    : cancel.map(c -> c.failed() ? failed(c, left, mem) : Event.DONE)
                            .orElse(Event.NOTHING);
            return new Seen(State.CANCELLING, event, id, server, plan, null, cancel.orElse(null), mem);
        }
        if (recorded && (invalid != null || server == null)) {
            return new Seen(State.RUNNING, Event.SPEC_INVALID, id, server, plan, invalid, null, mem);
        }
        if (recorded) {
            Optional<Done<RemoteJob>> polled = take(run, mem, Kind.POLL);
            Event event = polled.map(
                            p -> p.failed() ? failed(p, true, mem) : p.value().running() ? Event.RUNNING : Event.DONE)
                    .orElse(Event.NOTHING);
            RunTiming timing = new RunTiming(startTime(run), plan.timeout());
            // past the deadline: a last look before the cancel, at most LAST_LOOK after the deadline
            if (timing.timedOut(now)) {
                Instant deadline = timing.deadline().orElseThrow();
                boolean looked = polled.filter(p -> p.failed() || !p.at().isBefore(deadline))
                        .isPresent();
                event = RunMachine.pastDeadline(event, looked || !now.isBefore(deadline.plus(RunReconciler.LAST_LOOK)));
            }
            return new Seen(State.RUNNING, event, id, server, plan, null, polled.orElse(null), mem);
        }
        Optional<Duration> timeout = plan == null ? Optional.empty() : plan.timeout();
        Optional<RunTiming> sinceFirstTry =
                Optional.ofNullable(mem.first.get(Kind.START)).map(first -> new RunTiming(first, timeout));
        if (started != null) {
            Instant at = mem.started.at();
            Event event = invalid != null
                    ? Event.SPEC_INVALID
                    : sinceFirstTry.filter(t -> t.timedOut(at)).isPresent() ? Event.DEADLINE : Event.STARTED;
            return new Seen(State.STARTED, event, id, started.server(), plan, invalid, null, mem);
        }
        Event event = invalid != null
                ? Event.SPEC_INVALID
                : start.filter(Done::failed)
                        .map(d -> failed(d, true, mem))
                        .orElse(
                                sinceFirstTry.filter(t -> t.timedOut(now)).isPresent()
                                        ? Event.DEADLINE
                                        : Event.NOTHING);
        return new Seen(State.NEW, event, null, server, plan, invalid, start.orElse(null), mem);
    }

    /**
     * The event a failed call makes, as {@link RunMachine#failed} classes it: retried only {@code inBound}, and a bad
     * answer at most {@link RunReconciler#MAX_BAD_ANSWERS} times in a row.
     */
    private static Event failed(Done<?> done, boolean inBound, RunMemory.Of mem) {
        return RunMachine.failed(done.failure().failureClass(), inBound && !capped(mem, done.failure()));
    }

    static boolean capped(RunMemory.Of mem, RemoteJobException failure) {
        return failure.kind() == RemoteJobException.Kind.BAD_ANSWER && mem.badAnswers >= RunReconciler.MAX_BAD_ANSWERS;
    }

    /** The answer of the Run's call of this kind, if one is in, taken into the Run's memory. */
    private <T> Optional<Done<T>> take(Run run, RunMemory.Of mem, Kind kind) {
        Optional<Done<T>> done = calls.take(run, kind);
        done.ifPresent(d -> mem.heard(kind, d, calls::backoff));
        return done;
    }

    /** When the job was started; a start time that is not a time (edited by hand) counts from the Run's creation. */
    static Instant startTime(Run run) {
        try {
            return Instant.parse(run.getStatus().getStartTime());
        } catch (RuntimeException e) {
            return Instant.parse(run.getMetadata().getCreationTimestamp());
        }
    }

    /** When the deletion was asked for; a timestamp that is not one counts as now. */
    static Instant deletedAt(Run run, Instant now) {
        try {
            return Instant.parse(run.getMetadata().getDeletionTimestamp());
        } catch (RuntimeException e) {
            return now;
        }
    }

    static boolean ended(RunStatus status) {
        return status != null && (status.getPhase() != null && status.getPhase().ended());
    }
}
