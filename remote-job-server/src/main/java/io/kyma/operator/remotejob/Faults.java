package io.kyma.operator.remotejob;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Faults to inject into job API answers, changeable at run time. Admin requests are never faulted. */
public final class Faults {
    private volatile double errorRate;
    private volatile Duration latency = Duration.ZERO;
    private volatile Duration startLatency = Duration.ZERO;
    private volatile double garbageRate;

    /** Fraction (0..1) of job API requests answered with 503. */
    public Faults errorRate(double rate) {
        this.errorRate = fraction(rate, "error rate");
        return this;
    }

    /** Time added to every job API answer, after the request was handled. */
    public Faults latency(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative");
        }
        this.latency = latency;
        return this;
    }

    /** Fraction (0..1) of job API requests answered with 200 and a body that is not JSON. */
    public Faults garbageRate(double rate) {
        this.garbageRate = fraction(rate, "garbage rate");
        return this;
    }

    /** How job API answers are sent wrongly, one at a time; {@link Body#NORMAL} sends them as they are. */
    public enum Body {
        NORMAL,
        /** A valid answer padded with spaces to {@link #size} bytes, its length declared. */
        HUGE,
        /** An answer that never ends: chunks of spaces until the client hangs up, or 1 GiB, or a minute. */
        ENDLESS,
        /** A valid answer, one byte per {@link #latency} (at least 1 s), with no length declared. */
        SLOW,
        /** 503 with an error text of {@link #size} characters. */
        HUGE_ERROR
    }

    private volatile Body body = Body.NORMAL;
    private volatile long size = 8 << 20;
    private volatile String reportedState;

    /** How answers are sent. */
    public Faults body(Body body) {
        this.body = body;
        return this;
    }

    /** Bytes of a {@link Body#HUGE} answer or characters of a {@link Body#HUGE_ERROR} text. */
    public Faults size(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative");
        }
        this.size = size;
        return this;
    }

    /** A state that running jobs are reported in instead of {@code running} (for example {@code queued}); null for none. */
    public Faults reportedState(String state) {
        this.reportedState = state;
        return this;
    }

    public Body body() {
        return body;
    }

    public long size() {
        return size;
    }

    public String reportedState() {
        return reportedState;
    }

    public double errorRate() {
        return errorRate;
    }

    public Duration latency() {
        return latency;
    }

    /**
     * More time added to the answer of a job's start only, after the job has started; polls and cancels are not
     * slowed by it.
     */
    public Faults startLatency(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("start latency must not be negative");
        }
        this.startLatency = latency;
        return this;
    }

    public Duration startLatency() {
        return startLatency;
    }

    public double garbageRate() {
        return garbageRate;
    }

    boolean failNow() {
        return errorRate > 0 && ThreadLocalRandom.current().nextDouble() < errorRate;
    }

    boolean garbageNow() {
        return garbageRate > 0 && ThreadLocalRandom.current().nextDouble() < garbageRate;
    }

    private static double fraction(double value, String what) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(what + " must be between 0 and 1");
        }
        return value;
    }
}
