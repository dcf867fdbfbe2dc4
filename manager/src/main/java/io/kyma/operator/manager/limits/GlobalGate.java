package io.kyma.operator.manager.limits;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

import io.javaoperatorsdk.operator.processing.event.rate.RateLimiter;

/**
 * The optional gate of {@code --max-reconcile-rate}: one token bucket that every reconcile of every controller
 * passes. JOSDK asks the rate limiter again when a delayed reconcile comes due, so a resource remembers the token it
 * already reserved instead of taking a second one.
 */
public final class GlobalGate implements RateLimiter<GlobalGate.Reservation> {
    private final FairTokenQueue bucket;
    private final Consumer<Duration> waitRecorder;

    /** A resource's place in the bucket's line, while it waits for its token. */
    public static final class Reservation implements RateLimiter.RateLimitState {
        private FairTokenQueue.Ticket ticket;
    }

    public GlobalGate(FairTokenQueue bucket, Consumer<Duration> waitRecorder) {
        this.bucket = bucket;
        this.waitRecorder = waitRecorder;
    }

    @Override
    public Optional<Duration> isLimited(RateLimitState state) {
        Reservation reservation = (Reservation) state;
        synchronized (reservation) {
            boolean first = reservation.ticket == null;
            if (first) {
                // JOSDK's rate limiter state does not say whose it is: one line for all
                reservation.ticket = bucket.enqueue("");
            }
            Duration wait = bucket.waitFor(reservation.ticket);
            if (first) {
                waitRecorder.accept(wait);
            }
            if (wait.isZero()) {
                reservation.ticket = null;
                return Optional.empty();
            }
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
