package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.common.status.StatusPatch;
import io.kyma.operator.common.status.StatusWriter;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;
import io.kyma.operator.run.RunMachine.Action;
import io.kyma.operator.run.RunMachine.Event;
import io.kyma.operator.run.RunMachine.State;
import io.kyma.operator.run.RunObserver.Seen;

/**
 * Starts a Run's job on the remote service and polls it until it ends, as {@link RunMachine} decides: each reconcile
 * derives the Run's state and what was observed ({@link RunObserver}: an answer, a deadline, a spec it cannot carry
 * out), and carries out the one action the machine names. What it remembers of a Run between reconciles is in
 * {@link RunMemory}. A reconcile never waits for the service: it asks {@link JobCalls} for a call and
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
    private final RunObserver observer;
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
        this.memory = new RunMemory(clock, calls::forget);
        this.observer = new RunObserver(clock, settings, calls, memory);
        this.statusWriter = statusWriter;
    }

    /** The calls this controller makes to job services, for metrics. */
    public JobCalls calls() {
        return calls;
    }

    /** How many Runs this controller remembers between reconciles. */
    int remembered() {
        return memory.size();
    }

    @Override
    public List<EventSource<?, Run>> prepareEventSources(EventSourceContext<Run> context) {
        var answers = new SimpleInboundEventSource<Run>("job-service-answers");
        calls.onAnswer(answers::propagateEvent);
        return List.of(answers);
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
            Seen seen = observer.observe(run);
            Next next = act(
                    run,
                    context,
                    seen,
                    RunMachine.next(seen.state(), seen.event()).action());
            if (next != null) {
                return next;
            }
            if (pass >= 3 || !calls.answered(run)) {
                return new Next(RECHECK, false);
            }
        }
    }

    /** Asks for a call of the Run's after {@code after}, the first of its kind remembered; whether an answer is in. */
    private boolean ask(Run run, Seen seen, Kind kind, Duration after) {
        seen.mem().first.putIfAbsent(kind, clock.instant());
        JobServerUrl server = seen.server();
        String id = seen.id();
        RunPlan plan = seen.plan();
        Supplier<CompletableFuture<?>> work = switch (kind) {
            case START -> {
                Map<String, String> params = Map.copyOf(plan.params());
                String key = run.getMetadata().getUid();
                yield () -> jobs.start(server, plan.jobName(), params, key);
            }
            case POLL -> () -> jobs.get(server, id, LogTail.MAX_BYTES);
            case CANCEL -> () -> jobs.cancel(server, id);
        };
        calls.ask(run, kind, server, work, after, kind == Kind.START ? plan.startBodyBytes() : 0);
        return calls.answered(run);
    }

    /** Carries out {@code action}; null when it asked for a call whose answer may be in already. */
    private Next act(Run run, Context<Run> context, Seen seen, Action action) {
        Instant now = clock.instant();
        RunPlan plan = seen.plan();
        RunMemory.Of mem = seen.mem();
        JobServerUrl server = seen.server();
        return switch (action) {
            case FORGET -> end(run);
            case ASK_START -> {
                // past the deadline with the start out, its answer's event is what comes next (not a look at once)
                RunTiming tried = new RunTiming(mem.first.getOrDefault(Kind.START, now), plan.timeout());
                Next next = new Next(tried.timedOut(now) ? RECHECK : tried.nextPoll(now, RECHECK), false);
                boolean in = ask(run, seen, Kind.START, retryDelay(mem));
                yield in ? null : next;
            }
            case RECORD -> {
                write(run, mem, statuses.started(run, seen.id(), server), context);
                mem.lastPoll = now;
                log(run, "started job " + seen.id() + " on " + server);
                RunTiming timing = new RunTiming(now, plan.timeout());
                ask(run, seen, Kind.POLL, timing.nextPoll(now, plan.pollInterval()));
                yield new Next(timing.nextPoll(now, RECHECK), false);
            }
            case ASK_POLL -> {
                RunTiming timing = new RunTiming(RunObserver.startTime(run), plan.timeout());
                if (!calls.busy(run)) {
                    Duration sinceLast = mem.lastPoll == null
                            ? Duration.ZERO
                            : Duration.between(now, mem.lastPoll.plus(plan.pollInterval()));
                    Duration wait = max(sinceLast, retryDelay(mem));
                    if (ask(run, seen, Kind.POLL, timing.timedOut(now) ? Duration.ZERO : timing.nextPoll(now, wait))) {
                        yield null;
                    }
                }
                Duration left = timing.deadline()
                        .map(d -> Duration.between(now, d.plus(LAST_LOOK)))
                        .orElse(RECHECK);
                yield new Next(timing.timedOut(now) ? min(RECHECK, left) : timing.nextPoll(now, RECHECK), false);
            }
            case PROGRESS, OUTCOME ->
                seen.state() == State.CANCELLING ? cancelled(run, context, seen) : polled(run, context, seen);
            case BLOCKED -> blocked(run, context, seen);
            case BEGIN_CANCEL -> {
                String[] why = seen.why();
                if (server == null) { // status.server no longer allowed: no call goes there
                    write(run, mem, statuses.failed(run, why[0], why[1]), context);
                    yield end(run);
                }
                log(run, "cancelling job " + seen.id() + ": " + why[1]);
                write(run, mem, statuses.cancelling(run, seen.id(), server, why[0], why[1]), context);
                yield askCancel(run, seen);
            }
            case ASK_CANCEL -> askCancel(run, seen);
            case FAIL -> {
                if (seen.state() == State.NEW && !calls.withdrawUnsent(run)) {
                    yield new Next(RECHECK, false); // its start is out: its answer decides
                }
                String[] why = seen.why();
                if (seen.invalid() != null) {
                    log(run, "cannot be carried out: " + why[1]);
                }
                write(run, mem, statuses.failed(run, why[0], why[1]), context);
                yield end(run);
            }
            case CLEAN_UP -> {
                // a start not sent yet is withdrawn, so the service never hears of it; one out is waited for
                Next wait = new Next(min(RECHECK, cleanupLeft(run, now)), false);
                if (seen.id() == null) {
                    yield calls.withdrawUnsent(run) ? release(run) : wait;
                }
                yield askCancel(run, seen) == null ? null : wait;
            }
            case RELEASE -> {
                if (seen.id() != null && seen.event() != Event.DONE) {
                    String message = "could not cancel remote job " + seen.id() + " on " + server + " within "
                            + GoDuration.format(settings.cleanupTimeout()) + "; letting the Run go: "
                            + (seen.failure() == null
                                    ? "no answer"
                                    : seen.failure().getMessage());
                    log(run, message);
                    events.warning(run, "RemoteCleanupAbandoned", message); // best effort: the Run goes anyway
                }
                yield release(run);
            }
        };
    }

    private Next release(Run run) {
        end(run);
        return new Next(null, true);
    }

    /** Asks for the cancel: the first try at once, a retry after the backoff of the failures before it. */
    private Next askCancel(Run run, Seen seen) {
        Duration after = seen.mem().first.containsKey(Kind.CANCEL) ? retryDelay(seen.mem()) : Duration.ZERO;
        boolean in = ask(run, seen, Kind.CANCEL, after);
        return in ? null : new Next(min(RECHECK, max(after, Duration.ofSeconds(1))), false);
    }

    /** What a poll says: written (paced by the status interval while the job runs), and the next poll asked for. */
    private Next polled(Run run, Context<Run> context, Seen seen) {
        @SuppressWarnings("unchecked")
        Done<RemoteJob> answer = (Done<RemoteJob>) seen.answer();
        RemoteJob job = answer.value();
        RunStatus next = statuses.polled(run, job, RunPlan.movedTo(run, settings, seen.server()));
        if (seen.mem().due(run.getStatus(), next, settings.statusInterval(), clock.instant())) {
            try {
                write(run, seen.mem(), next, context);
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
        RunTiming timing = new RunTiming(RunObserver.startTime(run), seen.plan().timeout());
        ask(run, seen, Kind.POLL, timing.nextPoll(clock.instant(), seen.plan().pollInterval()));
        return new Next(timing.nextPoll(clock.instant(), RECHECK), false);
    }

    /** The cancel ended: the Run ends as its cancel said why, with the cancel's problem if it failed. */
    private Next cancelled(Run run, Context<Run> context, Seen seen) {
        String problem = seen.failure() == null
                ? (seen.server() == null ? "status.server can no longer be called" : null)
                : seen.failure().getMessage();
        write(run, seen.mem(), statuses.cancelled(run, problem), context);
        log(run, "ended, job " + seen.id() + (problem == null ? " cancelled" : " not cancelled: " + problem));
        return end(run);
    }

    /**
     * A failure another try may cure: the status names the server and its answer (paced like progress), and the call
     * is asked for again, as with nothing new, after a backoff that doubles with each failure in a row.
     */
    private Next blocked(Run run, Context<Run> context, Seen seen) {
        RemoteJobException e = seen.failure();
        Instant now = clock.instant();
        Instant giveUp = seen.mem().first.getOrDefault(Kind.CANCEL, now).plus(settings.cleanupTimeout());
        RunStatus next = seen.state() == State.CANCELLING
                ? statuses.cancelRetried(run, seen.id(), seen.server(), e, giveUp)
                : statuses.unreachable(run, e);
        if (seen.state() == State.DELETING) {
            log(run, "cannot cancel job " + seen.id() + " yet, retrying: " + e.getMessage());
        } else if (seen.mem().due(run.getStatus(), next, settings.statusInterval(), now)) {
            write(run, seen.mem(), next, context); // logged when the status says it, paced like the status
            log(run, e.getMessage() + "; trying again in " + GoDuration.format(retryDelay(seen.mem())));
        }
        return act(
                run, context, seen, RunMachine.next(seen.state(), Event.NOTHING).action());
    }

    private Duration cleanupLeft(Run run, Instant now) {
        return Duration.between(now, RunObserver.deletedAt(run, now).plus(settings.cleanupTimeout()));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private Duration retryDelay(RunMemory.Of mem) {
        return mem.retryDelay(clock.instant());
    }

    private Next end(Run run) {
        calls.forget(JobCalls.uid(run));
        memory.forget(run);
        return new Next(null, false);
    }

    /** A finished Run with its spec observed has nothing due. */
    @Override
    public boolean canWait(Run run) {
        RunStatus status = run.getStatus();
        return RunObserver.ended(status) && WorkPriority.settled(run, status.getObservedGeneration());
    }

    private void write(Run run, RunMemory.Of mem, RunStatus status, Context<Run> context) {
        RunStatus before = run.getStatus();
        statusWriter.write(run, status, context);
        mem.wrote(before, status, clock.instant());
        RunStatuses.notice(before, status).ifPresent(notice -> notice.tell(events, run));
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
