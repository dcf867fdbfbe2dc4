package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;

/**
 * What the Run controller keeps of each Run between its reconciles, in this process only; all else is derived from the
 * Run's status. Lost on a restart, it costs a Run a longer wait at most: its backoff, its count of bad answers and the
 * bound on its cancel start again. It is dropped when the Run ends or goes ({@link #forget}), and after {@link #IDLE}
 * without a reconcile in any case (a Run deleted unnoticed), together with what the calls keep of it.
 */
final class RunMemory {
    /** How long a Run is remembered without a reconcile. */
    static final Duration IDLE = Duration.ofHours(1);

    /** One Run's memory: only that Run's reconciles, one at a time, read and change it. */
    static final class Of {
        /** The start that answered with a job, until the status records the job (or the Run goes before). */
        Done<JobService.Start> started;
        /**
         * When a call of each kind was first asked for: a job that cannot be started times out from its first start,
         * a cancel that keeps failing is given up the cleanup timeout after its first try.
         */
        final Map<Kind, Instant> first = new EnumMap<>(Kind.class);
        /** Failures in a row that another try may cure, and when the next try may be made. */
        int failures;

        Instant retryAt;
        /** Bad answers (job-API answers that break the protocol) since the last usable answer. */
        int badAnswers;
        /** When the job was last polled (or started), the status last written, and a change of reachability. */
        Instant lastPoll;

        Instant lastWrite;
        Instant lastFlip;
        volatile Instant touched;

        /** Takes in an answer: counts its failure or clears the count, and keeps a start's job. */
        @SuppressWarnings("unchecked")
        void heard(Kind kind, Done<?> done, IntFunction<Duration> backoff) {
            RemoteJobException problem = done.failure();
            failures = problem != null && problem.failureClass() == FailureClass.RETRY ? failures + 1 : 0;
            badAnswers =
                    problem == null ? 0 : badAnswers + (problem.kind() == RemoteJobException.Kind.BAD_ANSWER ? 1 : 0);
            retryAt = failures == 0 ? null : done.at().plus(backoff.apply(failures));
            if (kind == Kind.POLL) {
                lastPoll = done.at();
            }
            if (kind == Kind.START && problem == null) {
                started = (Done<JobService.Start>) done;
            }
        }

        /**
         * Whether {@code next} is to be written now. What the service says (state text, log) waits for the status
         * interval since the last write; whether it answered (RemoteReachable) is written at once when it changes,
         * unless it changed within the interval already: an outage shows at once, a service that answers every other
         * call costs a write per interval, not one per call.
         */
        boolean due(RunStatus current, RunStatus next, Duration interval, Instant now) {
            return RunStatuses.needsWrite(current, next)
                    && (!RunStatuses.onlyProgress(current, next)
                            || passed(lastWrite, interval, now)
                            || RunStatuses.reachabilityChanged(current, next) && passed(lastFlip, interval, now));
        }

        /** The Run's status was written at {@code now}, from {@code before}. */
        void wrote(RunStatus before, RunStatus status, Instant now) {
            lastWrite = now;
            if (RunStatuses.reachabilityFlipped(before, status)) {
                lastFlip = now;
            }
        }

        private static boolean passed(Instant last, Duration interval, Instant now) {
            return last == null || !now.isBefore(last.plus(interval));
        }

        /** How long from {@code now} the Run waits before it calls its service again; zero after a success. */
        Duration retryDelay(Instant now) {
            return retryAt == null || !now.isBefore(retryAt) ? Duration.ZERO : Duration.between(now, retryAt);
        }
    }

    private final Map<String, Of> runs = new ConcurrentHashMap<>();
    private final Clock clock;
    private final AtomicLong looks = new AtomicLong();
    private final Consumer<String> gone;

    /** @param gone told the UID of each Run forgotten for want of reconciles */
    RunMemory(Clock clock, Consumer<String> gone) {
        this.clock = clock;
        this.gone = gone;
    }

    /** The Run's memory, new if none is kept. */
    Of of(Run run) {
        Instant now = clock.instant();
        if (looks.incrementAndGet() % 1024 == 0) {
            runs.forEach((uid, m) -> {
                if (m.touched.isBefore(now.minus(IDLE)) && runs.remove(uid, m)) {
                    gone.accept(uid);
                }
            });
        }
        Of memory = runs.computeIfAbsent(JobCalls.uid(run), uid -> new Of());
        memory.touched = now;
        return memory;
    }

    void forget(Run run) {
        runs.remove(JobCalls.uid(run));
    }

    /** How many Runs are remembered. */
    int size() {
        return runs.size();
    }
}
