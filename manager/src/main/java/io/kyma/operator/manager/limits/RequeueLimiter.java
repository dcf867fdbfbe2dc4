package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The requeue limiter shared by every controller of the manager: after a failed reconcile a resource waits
 * max(its own exponential backoff, the wait for a token from one shared bucket). The backoff starts at
 * {@code baseDelay}, doubles with each consecutive failure, is capped at {@code maxDelay}, and is forgotten on
 * success. It never gives up.
 */
public final class RequeueLimiter {
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final TokenBucket bucket;
    private final Clock clock;
    private final Consumer<Duration> waitRecorder;
    private final Map<Object, Backoff> backoffs = new ConcurrentHashMap<>();

    private record Backoff(int failures, Instant retryAt) {
    }

    public RequeueLimiter(Duration baseDelay, Duration maxDelay, TokenBucket bucket, Clock clock,
            Consumer<Duration> waitRecorder) {
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.bucket = bucket;
        this.clock = clock;
        this.waitRecorder = waitRecorder;
    }

    /** Records a failure of {@code key}; returns how long until its next attempt. */
    public Duration failed(Object key) {
        Backoff next = backoffs.compute(key, (k, previous) -> {
            int failures = previous == null ? 1 : previous.failures() + 1;
            Duration delay = max(backoff(failures), bucket.reserve());
            return new Backoff(failures, clock.instant().plus(delay));
        });
        Duration delay = Duration.between(clock.instant(), next.retryAt());
        waitRecorder.accept(delay);
        return delay;
    }

    /** Forgets the failures of {@code key}. */
    public void succeeded(Object key) {
        backoffs.remove(key);
    }

    /** How long {@code key} must still wait before its next attempt, if it is backing off. */
    public Optional<Duration> blockedFor(Object key) {
        Backoff backoff = backoffs.get(key);
        if (backoff == null) {
            return Optional.empty();
        }
        Duration remaining = Duration.between(clock.instant(), backoff.retryAt());
        return remaining.isNegative() || remaining.isZero() ? Optional.empty() : Optional.of(remaining);
    }

    /** Consecutive failures of {@code key}. */
    public int failures(Object key) {
        Backoff backoff = backoffs.get(key);
        return backoff == null ? 0 : backoff.failures();
    }

    /** The backoff after the n-th consecutive failure: base, 2 base, 4 base, ... capped at the maximum. */
    public Duration backoff(int failures) {
        int doublings = Math.min(failures - 1, 62);
        if (doublings >= 62 || baseDelay.toNanos() > maxDelay.toNanos() >> doublings) {
            return maxDelay;
        }
        return baseDelay.multipliedBy(1L << doublings);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
