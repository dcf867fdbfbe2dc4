package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;

/**
 * What deleting a Run does: cancels a job that may still run, on the server it was started on, for at most the
 * cleanup timeout; then lets the Run go whatever the service says. Nothing here can keep a Run (or its namespace)
 * from going: a warning event that cannot be written (the namespace is terminating) is only logged.
 */
final class RunCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(RunCleanup.class);

    private final Clock clock;
    private final RunSettings settings;
    private final JobService jobs;
    private final JobCalls calls;
    private final Supplier<Events> events;

    RunCleanup(Clock clock, RunSettings settings, JobService jobs, JobCalls calls, Supplier<Events> events) {
        this.events = events;
        this.clock = clock;
        this.settings = settings;
        this.jobs = jobs;
        this.calls = calls;
    }

    DeleteControl cleanup(Run run, Context<Run> context) {
        RunStatus status = run.getStatus();
        if (status != null
                && (status.getPhase() != null && status.getPhase().ended())
                && status.getRemoteId() != null) {
            return gone(run);
        }
        // A job may have been started whose id no status holds yet: its start's answer was in, or is on its way.
        Optional<JobCalls.Started> unrecorded =
                status != null && status.getRemoteId() != null ? Optional.empty() : calls.started(run);
        String id = unrecorded.map(JobCalls.Started::id).orElse(status == null ? null : status.getRemoteId());
        Duration elapsed = Duration.between(deletedAt(run), clock.instant());
        Duration remaining = settings.cleanupTimeout().minus(elapsed);
        if (id == null) {
            // a start not sent yet is withdrawn: the service never hears of it; one sent is waited for, to cancel
            // the job it makes
            if (!calls.withdrawUnsent(run) && remaining.compareTo(Duration.ZERO) > 0) {
                return DeleteControl.noFinalizerRemoval().rescheduleAfter(min(RunReconciler.RECHECK, remaining));
            }
            return gone(run);
        }
        JobServerUrl server;
        if (unrecorded.isPresent()) {
            server = unrecorded.get().server(); // where the start went, whatever spec.server says now
        } else {
            try {
                server = RunPlan.startedOn(run, settings);
            } catch (RunPlan.Invalid invalid) {
                return gone(run); // no job can have been started on a server it cannot name
            }
        }
        Optional<Done<Void>> cancelled = calls.take(run, Kind.CANCEL);
        if (cancelled.isEmpty() && (remaining.compareTo(Duration.ZERO) > 0)) {
            calls.ask(run, Kind.CANCEL, server, () -> jobs.cancel(server, id));
            cancelled = calls.take(run, Kind.CANCEL);
            if (cancelled.isEmpty()) {
                return DeleteControl.noFinalizerRemoval().rescheduleAfter(min(RunReconciler.RECHECK, remaining));
            }
        }
        if (cancelled.isPresent() && !cancelled.get().failed()) {
            LOG.info(
                    "Run {}/{}: deleted, job {} cancelled",
                    run.getMetadata().getNamespace(),
                    run.getMetadata().getName(),
                    id);
            return gone(run);
        }
        String problem = cancelled.map(c -> c.failure().getMessage()).orElse("no answer");
        if (!(remaining.compareTo(Duration.ZERO) > 0)
                || cancelled.isPresent() && !cancelled.get().failure().transientFailure()) {
            warn(
                    run,
                    "could not cancel remote job " + id + " on " + server + " within "
                            + GoDuration.format(settings.cleanupTimeout()) + "; letting the Run go: " + problem);
            return gone(run);
        }
        // Back off by half the time spent so far, between 1 s and what is left.
        Duration wait = elapsed.dividedBy(2);
        wait = wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait;
        wait = min(wait, remaining);
        LOG.warn(
                "Run {}/{}: cannot cancel job {} yet, retrying in {}: {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                id,
                GoDuration.format(wait.truncatedTo(ChronoUnit.MILLIS)),
                problem);
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(wait);
    }

    private DeleteControl gone(Run run) {
        calls.forget(run);
        return DeleteControl.defaultDelete();
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

    /** A Warning event, best effort: the Run goes whether or not the API server takes it. */
    private void warn(Run run, String message) {
        LOG.warn(
                "Run {}/{}: {}",
                run.getMetadata().getNamespace(),
                run.getMetadata().getName(),
                message);
        events.get().warning(run, "RemoteCleanupAbandoned", message);
    }
}
