package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.Conditions;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.StatusPatch;
import io.kyma.operator.common.StatusWriter;
import io.kyma.operator.common.WorkPriority;

/**
 * Starts a Run's job on the remote service and polls it until it ends. Between polls it reschedules itself and
 * writes nothing unless the job's state or log tail changed; its own status writes never trigger a reconcile.
 * The job is started with the Run's UID as idempotency key, so an operator that dies between starting the job and
 * recording it starts no second job.
 */
@ControllerConfiguration(name = RunReconciler.NAME)
public class RunReconciler implements Reconciler<Run>, Cleaner<Run>, WorkPriority<Run> {
    public static final String NAME = "run";
    private static final Logger LOG = LoggerFactory.getLogger(RunReconciler.class);

    private final Clock clock;
    private final RunSettings settings;
    private final JobService jobs;
    private final StatusWriter<Run, RunStatus> statusWriter;
    private final RunStatuses statuses;

    public RunReconciler(Clock clock, RunSettings settings, JobService jobs) {
        this(clock, settings, jobs, (run, status, context) -> StatusPatch.apply(run, Run::new, status, context));
    }

    RunReconciler(Clock clock, RunSettings settings, JobService jobs, StatusWriter<Run, RunStatus> statusWriter) {
        this.clock = clock;
        this.settings = settings;
        this.jobs = jobs;
        this.statuses = new RunStatuses(clock);
        this.statusWriter = statusWriter;
    }

    @Override
    public UpdateControl<Run> reconcile(Run run, Context<Run> context) throws RemoteJobException {
        RunStatus current = run.getStatus();
        if (current != null && (current.getPhase() == RunPhase.SUCCEEDED || current.getPhase() == RunPhase.FAILED)) {
            return UpdateControl.noUpdate();
        }
        RunPlan plan;
        try {
            plan = RunPlan.of(run, settings);
        } catch (RunPlan.Invalid invalid) {
            LOG.info("Run {}/{}: cannot be carried out: {}", run.getMetadata().getNamespace(),
                    run.getMetadata().getName(), invalid.getMessage());
            write(run, statuses.failed(run, invalid.reason(), invalid.getMessage()), context);
            return UpdateControl.noUpdate();
        }
        try {
            if (current == null || current.getRemoteId() == null) {
                return start(run, plan, context);
            }
            RunTiming timing = new RunTiming(startTime(run), plan.timeout());
            if (timing.timedOut(clock.instant())) {
                return timeOut(run, plan, current.getRemoteId(), context);
            }
            RemoteJob job = jobs.get(plan.server(), current.getRemoteId(), LogTail.MAX_BYTES);
            RunStatus next = statuses.polled(run, job);
            if (RunStatuses.needsWrite(current, next)) {
                write(run, next, context);
            }
            if (!job.running()) {
                LOG.info("Run {}/{}: job {} {}", run.getMetadata().getNamespace(), run.getMetadata().getName(),
                        job.id(), job.state());
                return UpdateControl.noUpdate();
            }
            return UpdateControl.<Run>noUpdate().rescheduleAfter(timing.nextPoll(clock.instant(), plan.pollInterval()));
        } catch (RemoteJobException e) {
            if (!e.transientFailure()) {
                write(run, statuses.failed(run, e.reason(), e.getMessage()), context);
                return UpdateControl.noUpdate();
            }
            RunStatus next = statuses.unreachable(run, e);
            if (RunStatuses.needsWrite(current, next)) {
                write(run, next, context);
            }
            throw e; // retried through the shared failure limiter; the phase stays as it is
        }
    }

    private UpdateControl<Run> start(Run run, RunPlan plan, Context<Run> context) throws RemoteJobException {
        Map<String, String> params = run.getSpec().getJob().getParams() == null ? Map.of()
                : run.getSpec().getJob().getParams();
        String id = jobs.start(plan.server(), run.getSpec().getJob().getName(), params, run.getMetadata().getUid());
        write(run, statuses.started(run, id), context);
        LOG.info("Run {}/{}: started job {} on {}", run.getMetadata().getNamespace(), run.getMetadata().getName(), id,
                plan.server());
        Duration first = new RunTiming(clock.instant(), plan.timeout()).nextPoll(clock.instant(), plan.pollInterval());
        return UpdateControl.<Run>noUpdate().rescheduleAfter(first);
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
        String problem = null;
        try {
            jobs.cancel(plan.server(), id);
        } catch (RemoteJobException e) {
            problem = e.getMessage();
        }
        write(run, statuses.timedOut(run, plan.timeout().orElseThrow(), problem), context);
        LOG.info("Run {}/{}: timed out, job {} cancelled", run.getMetadata().getNamespace(),
                run.getMetadata().getName(), id);
        return UpdateControl.noUpdate();
    }

    /** A finished Run with its spec observed has nothing due. */
    @Override
    public boolean canWait(Run run) {
        RunStatus status = run.getStatus();
        return status != null && (status.getPhase() == RunPhase.SUCCEEDED || status.getPhase() == RunPhase.FAILED)
                && WorkPriority.settled(run, status.getObservedGeneration());
    }

    @Override
    public DeleteControl cleanup(Run run, Context<Run> context) {
        RunStatus status = run.getStatus();
        if (status == null || status.getRemoteId() == null || status.getPhase() != RunPhase.UNKNOWN) {
            return DeleteControl.defaultDelete();
        }
        RunPlan plan;
        try {
            plan = RunPlan.of(run, settings);
        } catch (RunPlan.Invalid invalid) {
            return DeleteControl.defaultDelete(); // no job can have been started on a server it cannot name
        }
        try {
            jobs.cancel(plan.server(), status.getRemoteId());
            LOG.info("Run {}/{}: deleted, job {} cancelled", run.getMetadata().getNamespace(),
                    run.getMetadata().getName(), status.getRemoteId());
            return DeleteControl.defaultDelete();
        } catch (RemoteJobException e) {
            Instant deletedAt = Instant.parse(run.getMetadata().getDeletionTimestamp());
            Duration elapsed = Duration.between(deletedAt, clock.instant());
            Duration remaining = settings.cleanupTimeout().minus(elapsed);
            if (remaining.isNegative() || remaining.isZero()) {
                warn(run, context, "could not cancel remote job " + status.getRemoteId() + " within "
                        + GoDuration.format(settings.cleanupTimeout()) + "; letting the Run go: " + e.getMessage());
                return DeleteControl.defaultDelete();
            }
            // Back off by half the time spent so far, between 1 s and what is left.
            Duration wait = elapsed.dividedBy(2);
            wait = wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait;
            wait = wait.compareTo(remaining) > 0 ? remaining : wait;
            LOG.warn("Run {}/{}: cannot cancel job {} yet, retrying in {}: {}", run.getMetadata().getNamespace(),
                    run.getMetadata().getName(), status.getRemoteId(),
                    GoDuration.format(wait.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)), e.getMessage());
            return DeleteControl.noFinalizerRemoval().rescheduleAfter(wait);
        }
    }

    private void write(Run run, RunStatus status, Context<Run> context) {
        statusWriter.write(run, status, context);
    }

    private void warn(Run run, Context<Run> context, String message) {
        LOG.warn("Run {}/{}: {}", run.getMetadata().getNamespace(), run.getMetadata().getName(), message);
        String now = Conditions.timestamp(clock.instant());
        context.getClient().v1().events().inNamespace(run.getMetadata().getNamespace()).resource(new EventBuilder()
                .withNewMetadata().withGenerateName(run.getMetadata().getName() + ".").endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(run.getApiVersion())
                        .withKind(run.getKind()).withName(run.getMetadata().getName())
                        .withNamespace(run.getMetadata().getNamespace()).withUid(run.getMetadata().getUid()).build())
                .withType("Warning").withReason("RemoteCleanupAbandoned").withMessage(message)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent("kyma-operator").endSource()
                .build()).create();
    }

}
