package io.kyma.operator.remotejob;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * One remote job. Its state and log are computed from the clock, so the service needs no thread per job: a job of
 * duration D started at S is running until S + D, writes {@code linesPerSecond} log lines a second meanwhile, and then
 * succeeds, or fails when asked to.
 */
final class Job {
    final String id;
    final String name;
    final Map<String, String> params;
    final Instant startedAt;
    final Duration duration;
    final boolean fail;
    final double linesPerSecond;
    private volatile Instant cancelledAt;

    Job(
            String id,
            String name,
            Map<String, String> params,
            Instant startedAt,
            Duration duration,
            boolean fail,
            double linesPerSecond) {
        this.id = id;
        this.name = name;
        this.params = Map.copyOf(params);
        this.startedAt = startedAt;
        this.duration = duration;
        this.fail = fail;
        this.linesPerSecond = linesPerSecond;
    }

    enum State {
        running,
        succeeded,
        failed
    }

    /** Cancels a running job; returns false when it had already ended. */
    synchronized boolean cancel(Instant now) {
        if (state(now) != State.running) {
            return false;
        }
        cancelledAt = now;
        return true;
    }

    State state(Instant now) {
        if (cancelledAt != null) {
            return State.failed;
        }
        if (now.isBefore(endsAt())) {
            return State.running;
        }
        return fail ? State.failed : State.succeeded;
    }

    Instant finishedAt(Instant now) {
        if (cancelledAt != null) {
            return cancelledAt;
        }
        return state(now) == State.running ? null : endsAt();
    }

    String log(Instant now) {
        Instant until = finishedAt(now) == null ? now : finishedAt(now);
        long elapsedMillis = Math.max(0, Duration.between(startedAt, until).toMillis());
        long lines = (long) Math.floor(elapsedMillis / 1000.0 * linesPerSecond);
        StringBuilder log = new StringBuilder();
        log.append(startedAt).append(" job ").append(name).append(" started\n");
        for (long i = 1; i <= lines; i++) {
            Instant at = startedAt.plusMillis((long) (i * 1000 / linesPerSecond));
            log.append(at).append(" ").append(name).append(": step ").append(i).append('\n');
        }
        if (cancelledAt != null) {
            log.append(cancelledAt).append(" job ").append(name).append(" cancelled\n");
        } else if (state(now) != State.running) {
            log.append(endsAt()).append(" job ").append(name).append(fail ? " failed\n" : " succeeded\n");
        }
        return log.toString();
    }

    Instant endsAt() {
        return startedAt.plus(duration);
    }
}
