package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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
import io.kyma.operator.common.status.StatusPatch;
import io.kyma.operator.common.status.StatusWriter;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;

/**
 * Starts a Run's job on the remote service and polls it until it ends. A reconcile never waits for the service: it
 * asks {@link JobCalls} for a call and returns, and the answer's event brings it back. Between polls it reschedules
 * itself; it writes when the job's phase or the service's reachability changes, and what a running job's state text
 * or log says at most once per status interval; its own status writes never trigger a reconcile. The job is started
 * with the Run's UID as idempotency key, so an operator that dies between starting the job and recording it starts no
 * second job, and it is polled and cancelled on the server it was started on.
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
    private final RunCleanup cleanup;
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
        this.statusWriter = statusWriter;
        this.cleanup = new RunCleanup(clock, settings, jobs, calls, () -> events);
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

    @Override
    public UpdateControl<Run> reconcile(Run run, Context<Run> context) {
        RunStatus current = run.getStatus();
        boolean replan = RunStatuses.failedBeforeStart(run);
        if (ended(current) && !replan) {
            calls.forget(run);
            return UpdateControl.noUpdate();
        }
        boolean started = current != null && current.getRemoteId() != null && !replan;
        RunPlan plan;
        try {
            plan = started ? RunPlan.following(run, settings) : RunPlan.of(run, settings);
        } catch (RunPlan.Invalid invalid) {
            LOG.info(
                    "Run {}/{}: cannot be carried out: {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    invalid.getMessage());
            // A spec edited into one it cannot carry out while its job runs, or while its start is out: the job is
            // cancelled, not left running with nothing to follow it.
            Optional<JobCalls.Started> job = started
                    ? RunPlan.recorded(run, settings).map(server -> new JobCalls.Started(current.getRemoteId(), server))
                    : calls.started(run);
            if (job.isPresent()) {
                return cancelAndEnd(
                        run,
                        job.get().server(),
                        job.get().id(),
                        context,
                        problem -> statuses.failed(
                                run,
                                invalid.reason(),
                                invalid.getMessage() + "; the job was "
                                        + (problem == null
                                                ? "cancelled"
                                                : "to be cancelled, but cancelling failed: " + problem)));
            }
            if (!started && !calls.withdrawUnsent(run)) {
                return UpdateControl.<Run>noUpdate().rescheduleAfter(RECHECK); // its start is out: its answer decides
            }
            write(run, statuses.failed(run, invalid.reason(), invalid.getMessage()), context);
            return end(run);
        }
        if (!started) {
            return start(run, plan, context);
        }
        RunTiming timing = new RunTiming(startTime(run), plan.timeout());
        Instant now = clock.instant();
        Optional<Done<RemoteJob>> polled = calls.take(run, Kind.POLL);
        boolean jobEnded = polled.isPresent()
                && !polled.get().failed()
                && !polled.get().value().running();
        if (timing.timedOut(now) && !jobEnded) { // a job that ended is reported as it ended, even if seen late
            Instant deadline = timing.deadline().orElseThrow();
            boolean seenSinceDeadline = polled.isPresent() && !polled.get().at().isBefore(deadline);
            if (seenSinceDeadline
                    || calls.first(run, Kind.CANCEL).isPresent()
                    || !now.isBefore(deadline.plus(LAST_LOOK))) {
                return timeOut(run, plan, current.getRemoteId(), context);
            }
            // A last look before the cancel: the job may have ended before its deadline with no answer read since.
            // Bounded: past LAST_LOOK after the deadline the job is cancelled whatever the look found.
            if (!calls.busy(run)) {
                askPoll(run, plan, Duration.ZERO);
            }
            polled = calls.take(run, Kind.POLL);
            if (polled.isEmpty()
                    || polled.get().failed()
                    || polled.get().value().running()) {
                Duration left = Duration.between(now, deadline.plus(LAST_LOOK));
                return polled.isEmpty()
                        ? UpdateControl.<Run>noUpdate().rescheduleAfter(min(RECHECK, left))
                        : timeOut(run, plan, current.getRemoteId(), context);
            }
        }
        if (polled.isEmpty()) {
            if (!calls.busy(run)) {
                Duration sinceLast = calls.lastPoll(run)
                        .map(last -> Duration.between(now, last.plus(plan.pollInterval())))
                        .orElse(Duration.ZERO);
                Duration wait = sinceLast.compareTo(calls.retryDelay(run)) >= 0 ? sinceLast : calls.retryDelay(run);
                askPoll(run, plan, timing.nextPoll(now, wait));
                polled = calls.take(run, Kind.POLL);
            }
            if (polled.isEmpty()) {
                return UpdateControl.<Run>noUpdate().rescheduleAfter(timing.nextPoll(now, RECHECK));
            }
        }
        if (polled.get().failed()) {
            return failure(run, polled.get().failure(), context, timing, plan);
        }
        RemoteJob job = polled.get().value();
        RunStatus next = statuses.polled(run, job, RunPlan.movedTo(run, settings, plan.server()));
        if (due(run, current, next)) {
            try {
                write(run, next, context);
            } catch (RuntimeException e) {
                // Kept for the retry: lost, a job that ended would be read as not ended once the deadline passed.
                calls.putBack(run, Kind.POLL, polled.get());
                throw e;
            }
        }
        if (!job.running()) {
            LOG.info(
                    "Run {}/{}: job {} {}",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    job.id(),
                    job.state());
            return end(run);
        }
        // The next poll is asked for now, so that only its answer reconciles the Run.
        askPoll(run, plan, timing.nextPoll(clock.instant(), plan.pollInterval()));
        return UpdateControl.<Run>noUpdate().rescheduleAfter(timing.nextPoll(clock.instant(), RECHECK));
    }

    private void askPoll(Run run, RunPlan plan, Duration after) {
        String id = run.getStatus().getRemoteId();
        calls.ask(run, Kind.POLL, plan.server(), () -> jobs.get(plan.server(), id, LogTail.MAX_BYTES), after);
    }

    private UpdateControl<Run> start(Run run, RunPlan plan, Context<Run> context) {
        Optional<Done<JobService.Start>> answer = calls.take(run, Kind.START);
        // spec.timeout holds for a job that cannot be started too, counted from the first try
        Optional<RunTiming> tried = calls.first(run, Kind.START).map(first -> new RunTiming(first, plan.timeout()));
        if (answer.isPresent() && answer.get().failed()) {
            return failure(run, answer.get().failure(), context, tried.orElseThrow(), null);
        }
        // A start that was answered, whether or not its answer was taken before: a status write that failed after
        // it must not start a second job (on the server spec.server names by now).
        Optional<JobCalls.Started> job = calls.started(run);
        if (job.isEmpty()) {
            if (tried.isPresent() && tried.get().timedOut(clock.instant()) && calls.withdrawUnsent(run)) {
                write(
                        run,
                        statuses.failed(
                                run,
                                RunStatuses.REASON_TIMEOUT,
                                "the job could not be started within "
                                        + GoDuration.format(plan.timeout().orElseThrow())),
                        context);
                return end(run);
            }
            Map<String, String> params = run.getSpec().getJob().getParams() == null
                    ? Map.of()
                    : Map.copyOf(run.getSpec().getJob().getParams());
            String name = run.getSpec().getJob().getName();
            String key = run.getMetadata().getUid();
            calls.ask(
                    run,
                    Kind.START,
                    plan.server(),
                    () -> jobs.start(plan.server(), name, params, key),
                    calls.retryDelay(run),
                    plan.startBodyBytes());
            answer = calls.take(run, Kind.START);
            if (answer.isPresent() && answer.get().failed()) {
                return failure(
                        run,
                        answer.get().failure(),
                        context,
                        new RunTiming(calls.first(run, Kind.START).orElse(clock.instant()), plan.timeout()),
                        null);
            }
            job = calls.started(run);
            if (job.isEmpty()) {
                // past the deadline with the start out, its answer's event is what comes next (not a look at once)
                return UpdateControl.<Run>noUpdate()
                        .rescheduleAfter(tried.filter(t -> !t.timedOut(clock.instant()))
                                .map(t -> t.nextPoll(clock.instant(), RECHECK))
                                .orElse(RECHECK));
            }
        }
        // where the start went, which spec.server may no longer name: the job is followed there
        String id = job.get().id();
        JobServerUrl server = job.get().server();
        Optional<RunTiming> sinceFirstTry =
                calls.first(run, Kind.START).map(first -> new RunTiming(first, plan.timeout()));
        Instant answered = job.get().at() != null ? job.get().at() : clock.instant();
        if (sinceFirstTry.isPresent() && sinceFirstTry.get().timedOut(answered)) {
            // answered only after spec.timeout, counted from the first try: cancelled, not given a timeout afresh
            return cancelAndEnd(
                    run,
                    server,
                    id,
                    context,
                    problem -> statuses.startedTooLate(
                            run, id, server, plan.timeout().orElseThrow(), problem));
        }
        write(run, statuses.started(run, id, server), context);
        calls.polled(run);
        LOG.info(
                "Run {}/{}: started job {} on {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                id,
                server);
        RunTiming timing = new RunTiming(clock.instant(), plan.timeout());
        calls.ask(
                run,
                Kind.POLL,
                server,
                () -> jobs.get(server, id, LogTail.MAX_BYTES),
                timing.nextPoll(clock.instant(), plan.pollInterval()));
        return UpdateControl.<Run>noUpdate().rescheduleAfter(timing.nextPoll(clock.instant(), RECHECK));
    }

    /**
     * A permanent failure ends the Run; a transient one is said in status and tried again after a backoff that doubles
     * with each failure in a row ({@link JobCalls#retryDelay}). It is the service's failure, not the reconcile's. Bad
     * answers are tried again only {@link #MAX_BAD_ANSWERS} times in a row: then the Run ends Failed, its job (if it
     * has one, {@code following} its plan) cancelled.
     */
    private UpdateControl<Run> failure(
            Run run, RemoteJobException e, Context<Run> context, RunTiming timing, RunPlan following) {
        if (e.transientFailure() && calls.badAnswers(run) >= MAX_BAD_ANSWERS) {
            String gaveUp = "gave up after " + MAX_BAD_ANSWERS + " bad answers in a row; the last: " + e.getMessage();
            if (following != null) {
                String id = run.getStatus().getRemoteId();
                return cancelAndEnd(
                        run,
                        following.server(),
                        id,
                        context,
                        problem -> statuses.failed(
                                run,
                                e.reason(),
                                gaveUp + "; job " + id
                                        + (problem == null ? " cancelled" : " not cancelled: " + problem)));
            }
            write(run, statuses.failed(run, e.reason(), gaveUp), context);
            return end(run);
        }
        if (!e.transientFailure()) {
            write(run, statuses.failed(run, e.reason(), e.getMessage()), context);
            return end(run);
        }
        RunStatus next = statuses.unreachable(run, e);
        boolean written = due(run, run.getStatus(), next);
        if (written) {
            write(run, next, context);
        }
        // at INFO when the status says it (a change of cause included), paced like the status: not at every failure
        // of a service that fails every other call
        String line = "Run {}/{}: {}; trying again in {}";
        if (written) {
            LOG.info(
                    line,
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    e.getMessage(),
                    calls.retryDelay(run));
        } else {
            LOG.debug(
                    line,
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    e.getMessage(),
                    calls.retryDelay(run));
        }
        return UpdateControl.<Run>noUpdate().rescheduleAfter(timing.nextPoll(clock.instant(), calls.retryDelay(run)));
    }

    /** When the job was started; a start time that is not a time (edited by hand) counts from the Run's creation. */
    private Instant startTime(Run run) {
        try {
            return Instant.parse(run.getStatus().getStartTime());
        } catch (RuntimeException e) {
            return Instant.parse(run.getMetadata().getCreationTimestamp());
        }
    }

    private UpdateControl<Run> timeOut(Run run, RunPlan plan, String id, Context<Run> context) {
        return cancelAndEnd(
                run,
                plan.server(),
                id,
                context,
                problem -> statuses.timedOut(run, plan.timeout().orElseThrow(), problem));
    }

    /**
     * Cancels the job, then ends the Run with the status {@code ended} makes of the cancel's problem (null if none). A
     * cancel the service refuses for now is tried again with backoff for up to the cleanup timeout from its first try,
     * the status naming the server and its answer meanwhile; never is the Run ended with its job left running unsaid.
     */
    private UpdateControl<Run> cancelAndEnd(
            Run run, JobServerUrl server, String id, Context<Run> context, Function<String, RunStatus> ended) {
        Optional<Done<Void>> cancelled = calls.take(run, Kind.CANCEL);
        if (cancelled.isEmpty()) {
            // the first try at once; a retry after the backoff of the failures before it
            Duration after = calls.first(run, Kind.CANCEL).isPresent() ? calls.retryDelay(run) : Duration.ZERO;
            calls.ask(run, Kind.CANCEL, server, () -> jobs.cancel(server, id), after);
            cancelled = calls.take(run, Kind.CANCEL);
            if (cancelled.isEmpty()) {
                return UpdateControl.<Run>noUpdate().rescheduleAfter(min(RECHECK, calls.retryDelay(run)));
            }
        }
        RemoteJobException failure = cancelled.get().failure();
        Instant giveUp = calls.first(run, Kind.CANCEL).orElse(clock.instant()).plus(settings.cleanupTimeout());
        if (failure != null && failure.transientFailure() && clock.instant().isBefore(giveUp)) {
            RunStatus blocked = statuses.unreachable(
                    run,
                    failure.reason(),
                    "cancelling job " + id + " on " + server + ": " + failure.getMessage()
                            + "; retrying with backoff until " + giveUp);
            if (due(run, run.getStatus(), blocked)) {
                write(run, blocked, context);
            }
            return UpdateControl.<Run>noUpdate().rescheduleAfter(calls.retryDelay(run));
        }
        String problem = failure == null ? null : failure.getMessage();
        write(run, ended.apply(problem), context);
        LOG.info(
                "Run {}/{}: ended, job {} {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                id,
                problem == null ? "cancelled" : "not cancelled: " + problem);
        return end(run);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
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
        if (!RunStatuses.onlyProgress(current, next) || intervalPassed(run)) {
            return true;
        }
        return RunStatuses.reachabilityChanged(current, next)
                && calls.lastFlip(run)
                        .map(last -> !clock.instant().isBefore(last.plus(settings.statusInterval())))
                        .orElse(true);
    }

    private boolean intervalPassed(Run run) {
        return calls.lastWrite(run)
                .map(last -> !clock.instant().isBefore(last.plus(settings.statusInterval())))
                .orElse(true);
    }

    private UpdateControl<Run> end(Run run) {
        calls.forget(run);
        return UpdateControl.noUpdate();
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

    @Override
    public DeleteControl cleanup(Run run, Context<Run> context) {
        return cleanup.cleanup(run, context);
    }

    private void write(Run run, RunStatus status, Context<Run> context) {
        statusWriter.write(run, status, context);
        calls.wrote(run, RunStatuses.reachabilityFlipped(run.getStatus(), status));
        RunEvents.of(run.getStatus(), status).ifPresent(notice -> notice.tell(events, run));
    }

    /** Where this controller tells what happened to Runs; none until set. */
    public void tellWith(Events events) {
        this.events = events;
    }
}
