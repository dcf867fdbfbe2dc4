package io.kyma.operator.remotejob;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Faults to inject into job API answers, changeable at run time. Admin requests are never faulted. */
public final class Faults {
    private volatile double errorRate;
    private volatile Duration latency = Duration.ZERO;
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

    public double errorRate() {
        return errorRate;
    }

    public Duration latency() {
        return latency;
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
