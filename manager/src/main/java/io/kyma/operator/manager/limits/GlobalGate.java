package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

import io.javaoperatorsdk.operator.processing.event.rate.RateLimiter;

/**
 * The optional gate of {@code --max-reconcile-rate}: one token bucket that every reconcile of every controller
 * passes. JOSDK asks the rate limiter again when a delayed reconcile comes due, so a resource remembers the token it
 * already reserved instead of taking a second one.
 */
public final class GlobalGate implements RateLimiter<GlobalGate.Reservation> {
    private final TokenBucket bucket;
    private final Clock clock;
    private final Consumer<Duration> waitRecorder;

    /** A token a resource has reserved, valid from {@code validFrom}. */
    public static final class Reservation implements RateLimiter.RateLimitState {
        private Instant validFrom;
    }

    public GlobalGate(TokenBucket bucket, Clock clock, Consumer<Duration> waitRecorder) {
        this.bucket = bucket;
        this.clock = clock;
        this.waitRecorder = waitRecorder;
    }

    @Override
    public Optional<Duration> isLimited(RateLimitState state) {
        Reservation reservation = (Reservation) state;
        Instant now = clock.instant();
        synchronized (reservation) {
            if (reservation.validFrom != null) {
                Duration remaining = Duration.between(now, reservation.validFrom);
                if (remaining.isNegative() || remaining.isZero()) {
                    reservation.validFrom = null;
                    return Optional.empty();
                }
                return Optional.of(remaining);
            }
            Duration wait = bucket.reserve();
            waitRecorder.accept(wait);
            if (wait.isZero()) {
                return Optional.empty();
            }
            reservation.validFrom = now.plus(wait);
            return Optional.of(wait);
        }
    }

    @Override
    public Reservation initState() {
        return new Reservation();
    }

    /** The rate limiter for when the gate is off. */
    public static RateLimiter<Reservation> open() {
        return new RateLimiter<>() {
            @Override
            public Optional<Duration> isLimited(RateLimitState state) {
                return Optional.empty();
            }

            @Override
            public Reservation initState() {
                return new Reservation();
            }
        };
    }
}
