package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The requeue limiter shared by every controller of the manager: after a failed reconcile a resource waits
 * max(its own exponential backoff, the wait for a token from one shared bucket). The backoff starts at
 * {@code baseDelay}, doubles with each consecutive failure, is capped at {@code maxDelay}, and is forgotten on
 * success. It never gives up.
 * <p>
 * The bucket's waiting line is kept per namespace and served in turn ({@link FairTokenQueue}): a namespace that
 * fails faster than the bucket's rate queues behind itself, and another namespace's retry waits for at most one
 * token per namespace waiting. The delay given at a failure assumes no other namespace starts waiting; when one
 * does, the resource's retry is deferred again until its token is granted.
 */
public final class RequeueLimiter {
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final FairTokenQueue bucket;
    private final Clock clock;
    private final Consumer<Duration> waitRecorder;
    private final Map<Object, Backoff> backoffs = new ConcurrentHashMap<>();

    /**
     * @param epoch what the failures were failures of (a generation, a deletion): a new epoch starts afresh
     * @param token the retry's place in the bucket's line
     */
    private record Backoff(int failures, Instant retryAt, Object epoch, FairTokenQueue.Ticket token) {}

    private final AtomicLong failuresSeen = new AtomicLong();

    public RequeueLimiter(
            Duration baseDelay,
            Duration maxDelay,
            FairTokenQueue bucket,
            Clock clock,
            Consumer<Duration> waitRecorder) {
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.bucket = bucket;
        this.clock = clock;
        this.waitRecorder = waitRecorder;
    }

    /** Records a failure of {@code key}; returns how long until its next attempt. */
    public Duration failed(Object key) {
        return failed(key, null, "");
    }

    /**
     * Records a failure of {@code key} in {@code epoch}; failures of an earlier epoch are not counted, so an object
     * whose spec changed or that is being deleted starts at the first backoff. Its retry waits in the bucket's line
     * of {@code flow} (its namespace).
     */
    public Duration failed(Object key, Object epoch, String flow) {
        if (failuresSeen.incrementAndGet() % 1024 == 0) {
            forgetStale();
        }
        Instant now = clock.instant();
        Backoff next = backoffs.compute(key, (k, previous) -> {
            int failures = previous == null || !Objects.equals(previous.epoch(), epoch) ? 1 : previous.failures() + 1;
            if (previous != null) {
                bucket.cancel(previous.token());
            }
            return new Backoff(failures, now.plus(backoff(failures)), epoch, bucket.enqueue(flow));
        });
        Duration delay = wholeMillis(max(Duration.between(now, next.retryAt()), bucket.waitFor(next.token())));
        waitRecorder.accept(delay);
        return delay;
    }

    /** Forgets the failures of {@code key}. */
    public void succeeded(Object key) {
        Backoff gone = backoffs.remove(key);
        if (gone != null) {
            bucket.cancel(gone.token());
        }
    }

    /** How long {@code key} must still wait before its next attempt, if it is backing off. */
    public Optional<Duration> blockedFor(Object key) {
        return blockedFor(key, null);
    }

    /** How long {@code key} must still wait in {@code epoch}: not at all once the epoch has moved on. */
    public Optional<Duration> blockedFor(Object key, Object epoch) {
        Backoff backoff = backoffs.get(key);
        if (backoff == null || !Objects.equals(backoff.epoch(), epoch)) {
            return Optional.empty();
        }
        Duration remaining =
                wholeMillis(max(Duration.between(clock.instant(), backoff.retryAt()), bucket.waitFor(backoff.token())));
        return remaining.isNegative() || remaining.isZero() ? Optional.empty() : Optional.of(remaining);
    }

    /** Consecutive failures of {@code key}. */
    public int failures(Object key) {
        Backoff backoff = backoffs.get(key);
        return backoff == null ? 0 : backoff.failures();
    }

    /** Keys tracked, for tests. */
    int tracked() {
        return backoffs.size();
    }

    /**
     * Drops backoffs whose retry time passed longer ago than the longest backoff: their objects were not reconciled
     * since, which means they are gone (a deleted object's key is never used again).
     */
    private void forgetStale() {
        Instant before = clock.instant().minus(maxDelay);
        // one still waiting for its token is not stale: its retry has not come yet
        backoffs.values().removeIf(b -> b.retryAt().isBefore(before) && !bucket.waiting(b.token()));
    }

    /** The backoff after the n-th consecutive failure: base, 2 base, 4 base, ... capped at the maximum. */
    public Duration backoff(int failures) {
        int doublings = Math.min(failures - 1, 62);
        if (doublings >= 62 || baseDelay.toNanos() > maxDelay.toNanos() >> doublings) {
            return maxDelay;
        }
        return baseDelay.multipliedBy(1L << doublings);
    }

    /**
     * Rounded up to whole milliseconds: JOSDK reschedules in milliseconds and drops the rest, and a wait of less than
     * one would come back at once, before its time, to be deferred again.
     */
    static Duration wholeMillis(Duration d) {
        long millis = d.toMillis();
        return Duration.ofMillis(d.isNegative() || Duration.ofMillis(millis).equals(d) ? millis : millis + 1);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
