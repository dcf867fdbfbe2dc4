package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.events.Notice;
import io.kyma.operator.common.status.Conditions;
import io.kyma.operator.common.status.ShardLabelCondition;

/** The statuses a Run goes through, whether a new one is worth a write, and what its change tells. */
public final class RunStatuses {
    public static final String REMOTE_REACHABLE = "RemoteReachable";
    static final String REASON_TIMEOUT = "Timeout";
    static final String SUCCEEDED = "Succeeded";
    static final String REASON_RUNNING = "JobRunning";

    private final Conditions conditions;
    private final Clock clock;

    public RunStatuses(Clock clock) {
        this.clock = clock;
        this.conditions = new Conditions(clock);
    }

    /** The job was started on {@code server}: phase Running from now, whatever an earlier failure said. */
    public RunStatus started(Run run, String remoteId, JobServerUrl server) {
        RunStatus status = copy(run);
        status.setRemoteId(remoteId);
        recordServer(status, server);
        status.setCompletionTime(null);
        status.setStartTime(Conditions.timestamp(clock.instant()));
        status.setMessage("job started");
        running(run, status);
        return reachable(run, status);
    }

    /**
     * What a poll of the job says. {@code movedTo} is the server spec.server names now, when it was changed after the
     * job started: the job is not followed there, and the message says so.
     */
    public RunStatus polled(Run run, RemoteJob job, Optional<JobServerUrl> movedTo) {
        RunStatus status = copy(run);
        status.setLogs(job.log());
        status.setLogsTruncated(job.logTruncated() ? Boolean.TRUE : null);
        if (!job.running()) {
            boolean succeeded = job.ended().equals("succeeded");
            String reason = succeeded ? "JobSucceeded" : job.ended().equals("cancelled") ? "JobCancelled" : "JobFailed";
            ended(run, status, succeeded, reason, "job " + job.state() + lastLine(job.log()));
        } else {
            if (status.getPhase() != RunPhase.RUNNING) {
                running(run, status); // started by an operator that wrote phase Unknown
            }
            // running, or a state this operator does not know (queued)
            status.setMessage("job " + job.state()
                    + movedTo.map(to -> "; spec.server now names " + to
                                    + ", but the job stays on the server it was started on")
                            .orElse(""));
        }
        return reachable(run, status);
    }

    /**
     * Phase Running, and Succeeded=Unknown while the job runs, as Tekton and Knative spell it: `kubectl wait` for True
     * or False waits through it, and an earlier outcome's condition does not linger.
     */
    private void running(Run run, RunStatus status) {
        status.setPhase(RunPhase.RUNNING);
        set(run, status, SUCCEEDED, Conditions.Status.UNKNOWN, REASON_RUNNING, "job started");
    }

    /** The job ended without success before it was known to run, or its record is gone. */
    public RunStatus failed(Run run, String reason, String message) {
        return ended(run, copy(run), false, reason, message);
    }

    private RunStatus ended(Run run, RunStatus status, boolean succeeded, String reason, String message) {
        status.setPhase(succeeded ? RunPhase.SUCCEEDED : RunPhase.FAILED);
        status.setCompletionTime(Conditions.timestamp(clock.instant()));
        status.setMessage(message);
        set(run, status, SUCCEEDED, succeeded ? Conditions.Status.TRUE : Conditions.Status.FALSE, reason, message);
        return status;
    }

    /**
     * The job is being cancelled, {@code why} said with the reason the Run will end with: phase Running, Succeeded
     * Unknown with that reason, which tells a cancelling Run from a running one ({@link #cancelling(RunStatus)}).
     */
    public RunStatus cancelling(Run run, String remoteId, JobServerUrl server, String reason, String why) {
        RunStatus status = copy(run);
        status.setRemoteId(remoteId);
        recordServer(status, server);
        status.setPhase(RunPhase.RUNNING);
        status.setMessage(why + "; cancelling the job");
        set(run, status, SUCCEEDED, Conditions.Status.UNKNOWN, reason, why);
        return status;
    }

    /** Why the Run's job is being cancelled (reason and message), if it is. */
    public static Optional<Condition> cancelling(RunStatus status) {
        return status == null || status.getPhase() != RunPhase.RUNNING
                ? Optional.empty()
                : Conditions.find(status.getConditions(), SUCCEEDED)
                        .filter(c -> "Unknown".equals(c.getStatus()) && !REASON_RUNNING.equals(c.getReason()));
    }

    /** The cancel ended ({@code problem}: why it failed, or null): the Run ends Failed as its cancel said why. */
    public RunStatus cancelled(Run run, String problem) {
        Condition why = cancelling(run.getStatus()).orElseThrow();
        return failed(
                run,
                why.getReason(),
                why.getMessage()
                        + (problem == null ? "; the job was cancelled" : "; cancelling the job failed: " + problem));
    }

    /** Where the job is: its server, and the address its start connected to when it was pinned there. */
    private static void recordServer(RunStatus status, JobServerUrl server) {
        status.setServer(server.toString());
        status.setServerAddress(server.pinned().map(JobServerUrl::literal).orElse(null));
    }

    /** The server could not be used this time; the phase does not change, and the operator tries again. */
    public RunStatus unreachable(Run run, RemoteJobException problem) {
        return unreachable(run, problem.reason(), problem.getMessage() + "; retrying with backoff");
    }

    /** A cancel the service refused for now: RemoteReachable=False names the job, the answer, and until when. */
    public RunStatus cancelRetried(Run run, String id, JobServerUrl server, RemoteJobException problem, Instant until) {
        return unreachable(
                run,
                problem.reason(),
                "cancelling job " + id + " on " + server + ": " + problem.getMessage()
                        + "; retrying with backoff until " + until);
    }

    /** Why a Run timed out, by how far it got. */
    static String timedOut(RunMachine.State state, Duration timeout) {
        String limit = GoDuration.format(timeout);
        return switch (state) {
            case STARTED -> "the job was started only after " + limit;
            case RUNNING -> "the job did not finish within " + limit;
            default -> "the job could not be started within " + limit;
        };
    }

    /** The server could not be used this time, for the reason and with the message given. */
    public RunStatus unreachable(Run run, String reason, String message) {
        RunStatus status = copy(run);
        set(run, status, REMOTE_REACHABLE, Conditions.Status.FALSE, reason, message);
        return status;
    }

    /**
     * Whether the Run is retrying because its job service did not answer: its last attempt left
     * {@code RemoteReachable=False} and it has not ended.
     */
    public static boolean unreachable(Run run) {
        RunStatus status = run.getStatus();
        if (status == null || (status.getPhase() != null && status.getPhase().ended())) {
            return false;
        }
        return status.getConditions().stream()
                .anyMatch(c -> REMOTE_REACHABLE.equals(c.getType()) && "False".equals(c.getStatus()));
    }

    /**
     * Whether the Run failed before its job was started (a spec it could not carry out, a job the service refused) and
     * its spec changed since: then it is planned again.
     */
    public static boolean failedBeforeStart(Run run) {
        RunStatus status = run.getStatus();
        return status != null
                && status.getPhase() == RunPhase.FAILED
                && status.getRemoteId() == null
                && !Objects.equals(
                        status.getObservedGeneration(), run.getMetadata().getGeneration());
    }

    /** Whether {@code next} differs from {@code current} in anything but timestamps of unchanged conditions. */
    public static boolean needsWrite(RunStatus current, RunStatus next) {
        return current == null
                || !said(current, null).equals(said(next, null))
                || !Objects.equals(current.getMessage(), next.getMessage());
    }

    /**
     * Whether a write of {@code next} can wait for the Run's status interval: it changes only what the service says
     * (a running job's state text or log, or whether the service answered), not its phase, its other conditions or
     * anything the operator decided. A service that answers every other call, or a chatty job, is so written at most
     * once per interval.
     */
    public static boolean onlyProgress(RunStatus current, RunStatus next) {
        return current != null
                && said(current, REMOTE_REACHABLE)
                        .subList(0, 7)
                        .equals(said(next, REMOTE_REACHABLE).subList(0, 7));
    }

    /**
     * What a status says, in a list that compares equal when it says the same: the fields the operator decides, the
     * conditions (all but {@code without}) without their times, then what the service says (the log).
     */
    private static List<Object> said(RunStatus status, String without) {
        return Arrays.asList(
                status.getPhase(),
                status.getRemoteId(),
                status.getServer(),
                status.getServerAddress(),
                status.getCompletionTime(),
                status.getObservedGeneration(),
                (status.getConditions() == null ? List.<Condition>of() : status.getConditions())
                        .stream()
                                .filter(c -> without == null || !without.equals(c.getType()))
                                .map(c -> Arrays.asList(c.getType(), c.getStatus(), c.getReason(), c.getMessage()))
                                .toList(),
                status.getLogs(),
                status.getLogsTruncated());
    }

    /** Whether {@code next} says otherwise than {@code current} about whether the Run's service answers. */
    public static boolean reachabilityChanged(RunStatus current, RunStatus next) {
        return !Objects.equals(reachability(current), reachability(next));
    }

    /** Whether {@code next} turns what {@code current} said about whether the service answers (not its first word). */
    public static boolean reachabilityFlipped(RunStatus current, RunStatus next) {
        return reachability(current) != null && reachabilityChanged(current, next);
    }

    private static String reachability(RunStatus status) {
        return status == null
                ? null
                : Conditions.find(status.getConditions(), REMOTE_REACHABLE)
                        .map(Condition::getStatus)
                        .orElse(null);
    }

    private RunStatus reachable(Run run, RunStatus status) {
        set(run, status, REMOTE_REACHABLE, Conditions.Status.TRUE, "Answered", "the job server answered");
        return status;
    }

    /** The event a change of a Run's status tells: its job started, succeeded, failed or was cancelled. */
    static Optional<Notice> notice(RunStatus before, RunStatus after) {
        RunPhase was = before == null ? null : before.getPhase();
        RunPhase now = after.getPhase();
        if (now == null || now == was || (now == RunPhase.RUNNING && was == RunPhase.UNKNOWN)) {
            return Optional.empty();
        }
        if (now == RunPhase.RUNNING) {
            return Optional.of(
                    Notice.normal("JobStarted", "job " + after.getRemoteId() + " started on " + after.getServer()));
        }
        var outcome = Conditions.find(after.getConditions(), SUCCEEDED);
        String reason =
                outcome.map(c -> c.getReason()).orElse(now == RunPhase.SUCCEEDED ? "JobSucceeded" : "JobFailed");
        String message = outcome.map(c -> c.getMessage()).orElse(after.getMessage());
        return Optional.of(
                now == RunPhase.SUCCEEDED ? Notice.normal(reason, message) : Notice.warning(reason, message));
    }

    /** The status as it stands, with the shard-drain label's condition as the Run's labels make it. */
    private RunStatus copy(Run run) {
        RunStatus old = run.getStatus() == null ? new RunStatus() : run.getStatus();
        RunStatus status = new RunStatus();
        status.setPhase(old.getPhase());
        status.setRemoteId(old.getRemoteId());
        status.setServer(old.getServer());
        status.setServerAddress(old.getServerAddress());
        status.setStartTime(old.getStartTime());
        status.setCompletionTime(old.getCompletionTime());
        status.setLogs(old.getLogs());
        status.setLogsTruncated(old.getLogsTruncated());
        status.setMessage(old.getMessage());
        status.setObservedGeneration(run.getMetadata().getGeneration());
        status.setConditions(new ArrayList<>(ShardLabelCondition.apply(
                conditions,
                old.getConditions() == null ? List.of() : old.getConditions(),
                run.getMetadata().getGeneration(),
                Stream.of(run))));
        return status;
    }

    /** Sets the condition of {@code type}; its transition time changes only when its status does. */
    private void set(Run run, RunStatus status, String type, Conditions.Status value, String reason, String message) {
        status.setConditions(Conditions.replace(
                status.getConditions(),
                conditions.condition(
                        status.getConditions(),
                        type,
                        value,
                        reason,
                        message,
                        run.getMetadata().getGeneration())));
    }

    private static String lastLine(String log) {
        String line = log.strip().substring(log.strip().lastIndexOf('\n') + 1);
        return line.isEmpty() ? "" : ": " + ServerText.line(line, ServerText.MAX_MESSAGE);
    }
}
