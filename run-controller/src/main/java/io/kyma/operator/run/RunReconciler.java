package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.common.status.StatusPatch;
import io.kyma.operator.common.status.StatusWriter;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;
import io.kyma.operator.run.RunMachine.Action;
import io.kyma.operator.run.RunMachine.Event;
import io.kyma.operator.run.RunMachine.State;

/**
 * Starts a Run's job on the remote service and polls it until it ends, as {@link RunMachine} decides: each reconcile
 * derives the Run's state and what was observed (an answer, a deadline, a spec it cannot carry out), and carries out
 * the one action the machine names. A reconcile never waits for the service: it asks {@link JobCalls} for a call and
 * returns, and the answer's event brings it back. The job is started with the Run's UID as idempotency key, and polled
 * and cancelled on the server its start went to (status.server), whatever spec.server says later.
 */
@ControllerConfiguration(name = RunReconciler.NAME)
public class RunReconciler implements Reconciler<Run>, Cleaner<Run>, WorkPriority<Run> {
    public static final String NAME = "run";
    /** How soon a Run that waits for an answer looks again, in case the answer's event is lost. */
    static final Duration RECHECK = Duration.ofMinutes(1);
    /** How long after its deadline a Run may wait for a last look at its job before the job is cancelled. */
    static final Duration LAST_LOOK = Duration.ofSeconds(15);
    /** How many bad answers in a row a Run takes before it ends Failed (job-API answers that break the protocol). */
    static final int MAX_BAD_ANSWERS = 8;

    private static final Logger LOG = LoggerFactory.getLogger(RunReconciler.class);

    private final Clock clock;
    private final RunSettings settings;
    private final JobService jobs;
    private final JobCalls calls;
    private final StatusWriter<Run, RunStatus> statusWriter;
    private final RunStatuses statuses;
    private final RunMemory memory;
    private volatile Events events = Events.NONE;

    public RunReconciler(Clock clock, RunSettings settings, JobService jobs, JobCalls calls) {
        this(clock, settings, jobs, calls, (run, status, context) -> StatusPatch.apply(run, Run::new, status, context));
    }

    RunReconciler(
            Clock clock,
            RunSettings settings,
            JobService jobs,
            JobCalls calls,
            StatusWriter<Run, RunStatus> statusWriter) {
        this.clock = clock;
        this.settings = settings;
        this.jobs = jobs;
        this.calls = calls;
        this.statuses = new RunStatuses(clock);
        this.memory = new RunMemory(clock);
        this.statusWriter = statusWriter;
    }

    /** The calls this controller makes to job services, for metrics. */
    public JobCalls calls() {
        return calls;
    }

    @Override
    public List<EventSource<?, Run>> prepareEventSources(EventSourceContext<Run> context) {
        JobCallEvents answers = new JobCallEvents();
        calls.onAnswer(answers::answered);
        return List.of(answers);
    }

    /**
     * What one reconcile saw: the Run's state and the event, with what they carry (the job, where it runs, the answer
     * taken, its failure, the plan or why there is none).
     */
    private record Seen(
            State state,
            Event event,
            String id,
            JobServerUrl server,
            RunPlan plan,
            RunPlan.Invalid invalid,
            Done<?> answer) {
        RemoteJobException failure() {
            return answer == null ? null : answer.failure();
        }
    }

    /** What a reconcile ends in: look again after {@code after} (null: only when something happens), or let go. */
    private record Next(Duration after, boolean release) {}

    @Override
    public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
        Next next = run(run, context);
        return next.after() == null
                ? UpdateControl.noUpdate()
                : UpdateControl.<Run>noUpdate().rescheduleAfter(next.after());
    }

    @Override
    public DeleteControl cleanup(Run run, Context<Run> context) {
        Next next = run(run, context);
        return next.release()
                ? DeleteControl.defaultDelete()
                : DeleteControl.noFinalizerRemoval().rescheduleAfter(next.after() == null ? RECHECK : next.after());
    }

    /** Observes, steps and acts; a call answered at once (a closed client, a fake) is read in the same pass. */
    private Next run(Run run, Context<Run> context) {
        for (int pass = 0; ; pass++) {
            Seen seen = observe(run);
            RunMachine.Step step = RunMachine.next(seen.state(), seen.event());
            Next next = act(run, context, seen, step.action());
            if (next != null) {
                return next;
            }
            if (pass >= 3 || !calls.answered(run)) {
                return new Next(RECHECK, false);
            }
        }
    }

    private Seen observe(Run run) {
        RunStatus status = run.getStatus();
        Instant now = clock.instant();
        boolean replan = RunStatuses.failedBeforeStart(run);
        boolean recorded = status != null && status.getRemoteId() != null && !replan;
        RunMemory.Of mem = memory.of(run);
        Optional<Done<Object>> start = recorded ? Optional.empty() : take(run, Kind.START);
        Optional<JobService.Start> answered =
                Optional.ofNullable(recorded ? null : mem.started).map(Done::value);
        String id = recorded
                ? status.getRemoteId()
                : answered.map(JobService.Start::id).orElse(null);
        if (run.getMetadata().getDeletionTimestamp() != null) {
            if (ended(status) && recorded) {
                return new Seen(State.DELETING, Event.DONE, id, null, null, null, null);
            }
            JobServerUrl server = answered.map(JobService.Start::server).orElse(null);
            if (recorded) {
                try {
                    server = RunPlan.startedOn(run, settings);
                } catch (RunPlan.Invalid invalid) {
                    return new Seen(State.DELETING, Event.DONE, null, null, null, null, null); // nothing it can name
                }
            }
            Optional<Done<Object>> cancel = take(run, Kind.CANCEL);
            boolean left = now.isBefore(deletedAt(run).plus(settings.cleanupTimeout()));
            Event event = cancel.map(c -> !c.failed() ? Event.DONE : retry(run, c.failure(), left))
                    .orElse(left ? Event.NOTHING : Event.DEADLINE);
            return new Seen(State.DELETING, event, id, server, null, null, cancel.orElse(null));
        }
        if (ended(status) && !replan) {
            return new Seen(State.ENDED, Event.NOTHING, id, null, null, null, null);
        }
        RunPlan plan = null;
        RunPlan.Invalid invalid = null;
        try {
            plan = recorded ? RunPlan.following(run, settings) : RunPlan.of(run, settings);
        } catch (RunPlan.Invalid e) {
            invalid = e;
        }
        if (recorded && RunStatuses.cancelling(status).isPresent()) {
            JobServerUrl server = plan != null
                    ? plan.server()
                    : RunPlan.recorded(run, settings).orElse(null);
            Optional<Done<Object>> cancel = take(run, Kind.CANCEL);
            Instant giveUp = mem.first.getOrDefault(Kind.CANCEL, now).plus(settings.cleanupTimeout());
            Event event = server == null
                    ? Event.GIVE_UP
                    : cancel.map(c -> !c.failed() ? Event.DONE : retry(run, c.failure(), now.isBefore(giveUp)))
                            .orElse(Event.NOTHING);
            return new Seen(State.CANCELLING, event, id, server, plan, null, cancel.orElse(null));
        }
        if (recorded) {
            return running(run, id, plan, invalid, now);
        }
        Optional<Duration> timeout = plan == null ? Optional.empty() : plan.timeout();
        Optional<RunTiming> sinceFirstTry =
                Optional.ofNullable(mem.first.get(Kind.START)).map(first -> new RunTiming(first, timeout));
        if (answered.isPresent()) {
            Instant at = mem.started.at();
            Event event = invalid != null
                    ? Event.SPEC_INVALID
                    : sinceFirstTry.filter(t -> t.timedOut(at)).isPresent() ? Event.DEADLINE : Event.STARTED;
            return new Seen(State.STARTED, event, id, answered.get().server(), plan, invalid, null);
        }
        Event event = invalid != null
                ? Event.SPEC_INVALID
                : start.filter(Done::failed).isPresent()
                        ? retry(run, start.get().failure(), true)
                        : sinceFirstTry.filter(t -> t.timedOut(now)).isPresent() ? Event.DEADLINE : Event.NOTHING;
        return new Seen(State.NEW, event, null, plan == null ? null : plan.server(), plan, invalid, start.orElse(null));
    }

    /** A Run whose job the status records, following it: its poll's answer, and its deadline with a last look. */
    private Seen running(Run run, String id, RunPlan plan, RunPlan.Invalid invalid, Instant now) {
        JobServerUrl server =
                plan != null ? plan.server() : RunPlan.recorded(run, settings).orElse(null);
        if (invalid != null || server == null) {
            return new Seen(State.RUNNING, Event.SPEC_INVALID, id, server, plan, invalid, null);
        }
        Optional<Done<RemoteJob>> polled = take(run, Kind.POLL);
        RunTiming timing = new RunTiming(startTime(run), plan.timeout());
        Event event;
        if (polled.isPresent() && !polled.get().failed()) {
            event = polled.get().value().running() ? Event.RUNNING : Event.DONE;
        } else {
            event = polled.map(p -> retry(run, p.failure(), true)).orElse(Event.NOTHING);
        }
        if (event != Event.DONE && timing.timedOut(now)) { // a job that ended is reported as it ended, seen late too
            // a last look before the cancel, for a job that may have ended before its deadline: bounded, past
            // LAST_LOOK after the deadline the job is cancelled whatever the look found
            Instant deadline = timing.deadline().orElseThrow();
            boolean looked = polled.isPresent()
                    && (polled.get().failed() || !polled.get().at().isBefore(deadline));
            if (looked || !now.isBefore(deadline.plus(LAST_LOOK))) {
                event = Event.DEADLINE;
            } else if (event == Event.RUNNING) {
                event = Event.NOTHING;
            }
        }
        return new Seen(State.RUNNING, event, id, server, plan, null, polled.orElse(null));
    }

    /**
     * What a failure means for the next try: the job is gone, another try may cure it (backoff; while {@code inBound};
     * a bad answer at most {@link #MAX_BAD_ANSWERS} times in a row), or none can.
     */
    private Event retry(Run run, RemoteJobException failure, boolean inBound) {
        if (failure.failureClass() == FailureClass.GONE) {
            return Event.GONE;
        }
        return failure.transientFailure() && inBound && !capped(run, failure) ? Event.RETRY : Event.GIVE_UP;
    }

    private boolean capped(Run run, RemoteJobException failure) {
        return failure.kind() == RemoteJobException.Kind.BAD_ANSWER && memory.of(run).badAnswers >= MAX_BAD_ANSWERS;
    }

    /** The answer of the Run's call of this kind, if one is in, taken into the Run's memory. */
    private <T> Optional<Done<T>> take(Run run, Kind kind) {
        Optional<Done<T>> done = calls.take(run, kind);
        done.ifPresent(d -> memory.of(run).heard(kind, d, calls::backoff));
        return done;
    }

    /** Asks for a call of the Run's, after {@code after}; the first of its kind is remembered. */
    private void ask(
            Run run,
            Kind kind,
            JobServerUrl server,
            Supplier<CompletableFuture<?>> work,
            Duration after,
            long bodyBytes) {
        memory.of(run).first.putIfAbsent(kind, clock.instant());
        calls.ask(run, kind, server, work, after, bodyBytes);
    }

    /** Carries out {@code action}; null when it asked for a call whose answer may be in already. */
    private Next act(Run run, Context<Run> context, Seen seen, Action action) {
        Instant now = clock.instant();
        RunPlan plan = seen.plan();
        return switch (action) {
            case FORGET -> end(run);
            case ASK_START -> {
                Map<String, String> params = run.getSpec().getJob().getParams() == null
                        ? Map.of()
                        : Map.copyOf(run.getSpec().getJob().getParams());
                String name = run.getSpec().getJob().getName();
                String key = run.getMetadata().getUid();
                ask(
                        run,
                        Kind.START,
                        plan.server(),
                        () -> jobs.start(plan.server(), name, params, key),
                        retryDelay(run),
                        plan.startBodyBytes());
                if (calls.answered(run)) {
                    yield null;
                }
                // past the deadline with the start out, its answer's event is what comes next (not a look at once)
                Optional<RunTiming> tried = Optional.ofNullable(
                                memory.of(run).first.get(Kind.START))
                        .map(first -> new RunTiming(first, plan.timeout()));
                yield new Next(
                        tried.filter(t -> !t.timedOut(now))
                                .map(t -> t.nextPoll(now, RECHECK))
                                .orElse(RECHECK),
                        false);
            }
            case RECORD -> {
                write(run, statuses.started(run, seen.id(), seen.server()), context);
                memory.of(run).lastPoll = now;
                log(run, "started job " + seen.id() + " on " + seen.server());
                RunTiming timing = new RunTiming(now, plan.timeout());
                askPoll(run, seen, timing.nextPoll(now, plan.pollInterval()));
                yield new Next(timing.nextPoll(now, RECHECK), false);
            }
            case ASK_POLL -> {
                RunTiming timing = new RunTiming(startTime(run), plan.timeout());
                if (!calls.busy(run)) {
                    Duration sinceLast = Optional.ofNullable(memory.of(run).lastPoll)
                            .map(last -> Duration.between(now, last.plus(plan.pollInterval())))
                            .orElse(Duration.ZERO);
                    Duration wait = max(sinceLast, retryDelay(run));
                    askPoll(run, seen, timing.timedOut(now) ? Duration.ZERO : timing.nextPoll(now, wait));
                    if (calls.answered(run)) {
                        yield null;
                    }
                }
                Duration left = timing.deadline()
                        .filter(d -> timing.timedOut(now))
                        .map(d -> Duration.between(now, d.plus(LAST_LOOK)))
                        .orElse(RECHECK);
                yield new Next(timing.timedOut(now) ? min(RECHECK, left) : timing.nextPoll(now, RECHECK), false);
            }
            case PROGRESS, OUTCOME ->
                seen.state() == State.CANCELLING ? cancelled(run, context, seen) : polled(run, context, seen);
            case BLOCKED -> blocked(run, context, seen);
            case BEGIN_CANCEL -> {
                if (seen.server() == null) { // status.server no longer allowed: no call goes there
                    write(
                            run,
                            statuses.failed(
                                    run, seen.invalid().reason(), seen.invalid().getMessage()),
                            context);
                    yield end(run);
                }
                write(run, cancelling(run, seen), context);
                yield askCancel(run, seen);
            }
            case ASK_CANCEL -> askCancel(run, seen);
            case FAIL -> {
                if (seen.state() == State.NEW && !calls.withdrawUnsent(run)) {
                    yield new Next(RECHECK, false); // its start is out: its answer decides
                }
                String[] why = why(run, seen);
                if (seen.invalid() != null) {
                    log(run, "cannot be carried out: " + why[1]);
                }
                write(run, statuses.failed(run, why[0], why[1]), context);
                yield end(run);
            }
            case CLEAN_UP -> {
                Duration left = Duration.between(now, deletedAt(run).plus(settings.cleanupTimeout()));
                if (seen.id() == null) {
                    // a start not sent yet is withdrawn, so the service never hears of it; one out is waited for
                    yield calls.withdrawUnsent(run) ? release(run) : new Next(min(RECHECK, left), false);
                }
                Next asked = askCancel(run, seen);
                yield asked == null ? null : new Next(min(RECHECK, left), false);
            }
            case RELEASE -> {
                if (seen.id() != null && seen.event() != Event.DONE) {
                    warn(
                            run,
                            "could not cancel remote job " + seen.id() + " on " + seen.server() + " within "
                                    + GoDuration.format(settings.cleanupTimeout()) + "; letting the Run go: "
                                    + (seen.failure() == null
                                            ? "no answer"
                                            : seen.failure().getMessage()));
                }
                yield release(run);
            }
        };
    }

    private Next release(Run run) {
        calls.forget(run);
        memory.forget(run);
        return new Next(null, true);
    }

    /** The reason and message a Run ends Failed with (or its job is cancelled for), for what the machine saw. */
    private String[] why(Run run, Seen seen) {
        if (seen.invalid() != null) {
            return new String[] {seen.invalid().reason(), seen.invalid().getMessage()};
        }
        RemoteJobException e = seen.failure();
        if (seen.event() == Event.DEADLINE || e == null) {
            String timeout = GoDuration.format(seen.plan().timeout().orElseThrow());
            return new String[] {
                RunStatuses.REASON_TIMEOUT,
                switch (seen.state()) {
                    case STARTED -> "the job was started only after " + timeout;
                    case RUNNING -> "the job did not finish within " + timeout;
                    default -> "the job could not be started within " + timeout;
                }
            };
        }
        return new String[] {
            e.reason(),
            capped(run, e)
                    ? "gave up after " + MAX_BAD_ANSWERS + " bad answers in a row; the last: " + e.getMessage()
                    : e.getMessage()
        };
    }

    /** The status that says why the job is cancelled, and records where it is. */
    private RunStatus cancelling(Run run, Seen seen) {
        String[] why = why(run, seen);
        log(run, "cancelling job " + seen.id() + ": " + why[1]);
        return statuses.cancelling(run, seen.id(), seen.server(), why[0], why[1]);
    }

    private Next askCancel(Run run, Seen seen) {
        // the first try at once; a retry after the backoff of the failures before it
        Duration after = memory.of(run).first.containsKey(Kind.CANCEL) ? retryDelay(run) : Duration.ZERO;
        JobServerUrl server = seen.server();
        String id = seen.id();
        ask(run, Kind.CANCEL, server, () -> jobs.cancel(server, id), after, 0);
        return calls.answered(run) ? null : new Next(min(RECHECK, max(after, Duration.ofSeconds(1))), false);
    }

    private void askPoll(Run run, Seen seen, Duration after) {
        JobServerUrl server = seen.server();
        String id = seen.id();
        ask(run, Kind.POLL, server, () -> jobs.get(server, id, LogTail.MAX_BYTES), after, 0);
    }

    /** What a poll says: written (paced by the status interval while the job runs), and the next poll asked for. */
    private Next polled(Run run, Context<Run> context, Seen seen) {
        @SuppressWarnings("unchecked")
        Done<RemoteJob> answer = (Done<RemoteJob>) seen.answer();
        RemoteJob job = answer.value();
        RunStatus next = statuses.polled(run, job, RunPlan.movedTo(run, settings, seen.server()));
        if (due(run, run.getStatus(), next)) {
            try {
                write(run, next, context);
            } catch (RuntimeException e) {
                // Kept for the retry: lost, a job that ended would be read as not ended once the deadline passed.
                calls.putBack(run, Kind.POLL, answer);
                throw e;
            }
        }
        if (!job.running()) {
            log(run, "job " + job.id() + " " + job.state());
            return end(run);
        }
        // The next poll is asked for now, so that only its answer reconciles the Run.
        RunTiming timing = new RunTiming(startTime(run), seen.plan().timeout());
        askPoll(run, seen, timing.nextPoll(clock.instant(), seen.plan().pollInterval()));
        return new Next(timing.nextPoll(clock.instant(), RECHECK), false);
    }

    /** The cancel ended: the Run ends as its cancel said why, with the cancel's problem if it failed. */
    private Next cancelled(Run run, Context<Run> context, Seen seen) {
        String problem = seen.failure() == null
                ? (seen.server() == null ? "status.server can no longer be called" : null)
                : seen.failure().getMessage();
        write(run, statuses.cancelled(run, problem), context);
        log(run, "ended, job " + seen.id() + (problem == null ? " cancelled" : " not cancelled: " + problem));
        return end(run);
    }

    /**
     * A failure another try may cure: the status names the server and its answer (paced like progress), and the call
     * is tried again after a backoff that doubles with each failure in a row ({@link JobCalls#retryDelay}).
     */
    private Next blocked(Run run, Context<Run> context, Seen seen) {
        RemoteJobException e = seen.failure();
        Instant now = clock.instant();
        if (seen.state() == State.DELETING) {
            Duration left = Duration.between(now, deletedAt(run).plus(settings.cleanupTimeout()));
            log(run, "cannot cancel job " + seen.id() + " yet, retrying: " + e.getMessage());
            return new Next(min(max(retryDelay(run), Duration.ofSeconds(1)), left), false);
        }
        RunStatus next = seen.state() == State.CANCELLING
                ? statuses.unreachable(
                        run,
                        e.reason(),
                        "cancelling job " + seen.id() + " on " + seen.server() + ": " + e.getMessage()
                                + "; retrying with backoff until "
                                + memory.of(run)
                                        .first
                                        .getOrDefault(Kind.CANCEL, now)
                                        .plus(settings.cleanupTimeout()))
                : statuses.unreachable(run, e);
        boolean written = due(run, run.getStatus(), next);
        if (written) {
            write(run, next, context);
        }
        if (written) { // logged when the status says it, paced like the status
            log(run, e.getMessage() + "; trying again in " + GoDuration.format(retryDelay(run)));
        }
        Optional<Duration> timeout =
                seen.plan() == null ? Optional.empty() : seen.plan().timeout();
        Instant since = seen.state() == State.NEW
                ? memory.of(run).first.getOrDefault(Kind.START, now)
                : seen.state() == State.RUNNING ? startTime(run) : now;
        return new Next(new RunTiming(since, timeout).nextPoll(now, retryDelay(run)), false);
    }

    /** When the job was started; a start time that is not a time (edited by hand) counts from the Run's creation. */
    private Instant startTime(Run run) {
        try {
            return Instant.parse(run.getStatus().getStartTime());
        } catch (RuntimeException e) {
            return Instant.parse(run.getMetadata().getCreationTimestamp());
        }
    }

    /** When the deletion was asked for; a timestamp that is not one counts as now. */
    private Instant deletedAt(Run run) {
        try {
            return Instant.parse(run.getMetadata().getDeletionTimestamp());
        } catch (RuntimeException e) {
            return clock.instant();
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * Whether {@code next} is to be written now. What the service says (state text, log) waits for the status
     * interval since the last write; whether it answered (RemoteReachable) is written at once when it changes, unless
     * it changed within the interval already: an outage shows at once, a service that answers every other call
     * costs a write per interval, not one per call.
     */
    private boolean due(Run run, RunStatus current, RunStatus next) {
        if (!RunStatuses.needsWrite(current, next)) {
            return false;
        }
        RunMemory.Of mem = memory.of(run);
        if (!RunStatuses.onlyProgress(current, next) || passed(mem.lastWrite)) {
            return true;
        }
        return RunStatuses.reachabilityChanged(current, next) && passed(mem.lastFlip);
    }

    private boolean passed(Instant last) {
        return last == null || !clock.instant().isBefore(last.plus(settings.statusInterval()));
    }

    private Duration retryDelay(Run run) {
        return memory.of(run).retryDelay(clock.instant());
    }

    private Next end(Run run) {
        calls.forget(run);
        memory.forget(run);
        return new Next(null, false);
    }

    private static boolean ended(RunStatus status) {
        return status != null && (status.getPhase() != null && status.getPhase().ended());
    }

    /** A finished Run with its spec observed has nothing due. */
    @Override
    public boolean canWait(Run run) {
        RunStatus status = run.getStatus();
        return ended(status) && WorkPriority.settled(run, status.getObservedGeneration());
    }

    private void write(Run run, RunStatus status, Context<Run> context) {
        RunStatus before = run.getStatus();
        statusWriter.write(run, status, context);
        RunMemory.Of mem = memory.of(run);
        mem.lastWrite = clock.instant();
        if (RunStatuses.reachabilityFlipped(before, status)) {
            mem.lastFlip = mem.lastWrite;
        }
        RunEvents.of(before, status).ifPresent(notice -> notice.tell(events, run));
    }

    /** A Warning event, best effort: the Run goes whether or not the API server takes it. */
    private void warn(Run run, String message) {
        log(run, message);
        events.warning(run, "RemoteCleanupAbandoned", message);
    }

    private static void log(Run run, String message) {
        LOG.info(
                "Run {}/{}: {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                message);
    }

    /** Where this controller tells what happened to Runs; none until set. */
    public void tellWith(Events events) {
        this.events = events;
    }
}
