package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A token bucket that hands out reservations: a caller always gets a token, and is told how long to wait before
 * using it. Tokens accrue at {@code ratePerSecond} up to {@code burst}. Waiting callers queue up in the future, so
 * the rate holds however many callers there are.
 */
public final class TokenBucket {
    private final double ratePerSecond;
    private final int burst;
    private final Clock clock;
    private double tokens;
    private Instant last;

    public TokenBucket(double ratePerSecond, int burst, Clock clock) {
        if (ratePerSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("a token bucket needs a positive rate and a burst of at least 1");
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.clock = clock;
        this.tokens = burst;
        this.last = clock.instant();
    }

    /** Takes a token; returns how long the caller must wait before acting on it (zero when one was available). */
    public synchronized Duration reserve() {
        refill();
        tokens -= 1;
        if (tokens >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(-tokens / ratePerSecond * 1e9));
    }

    /** Tokens available now; negative when callers are already waiting. */
    public synchronized double available() {
        refill();
        return tokens;
    }

    public double ratePerSecond() {
        return ratePerSecond;
    }

    public int burst() {
        return burst;
    }

    private void refill() {
        Instant now = clock.instant();
        if (now.isAfter(last)) {
            double elapsedSeconds = Duration.between(last, now).toNanos() / 1e9;
            tokens = Math.min(burst, tokens + elapsedSeconds * ratePerSecond);
            last = now;
        }
    }
}
