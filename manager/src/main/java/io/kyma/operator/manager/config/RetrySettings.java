package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;

/**
 * How failed reconciles (and failed job service calls) are retried: a delay that doubles from {@code baseDelay} to
 * {@code maxDelay}, the retries of all controllers drawn from one token bucket of {@code frequency} a second.
 */
public record RetrySettings(Duration baseDelay, Duration maxDelay, double frequency, int burst) {
    static final Flag<Duration> BASE_DELAY = Flag.of(
            "failure-base-delay",
            "1s",
            "First retry delay after a failed reconcile; it doubles with each further failure.",
            GoDuration::parsePositive);
    static final Flag<Duration> MAX_DELAY = Flag.of(
            "failure-max-delay",
            "1000s",
            "Longest retry delay after failed reconciles; not shorter than `--failure-base-delay`.",
            GoDuration::parsePositive);
    static final Flag<Double> FREQUENCY = Flag.of(
            "rate-limiter-frequency",
            "30",
            "Retries of failed reconciles per second, one token bucket shared by all controllers.",
            Parsers.positiveNumber());
    static final Flag<Integer> BURST =
            Flag.of("rate-limiter-burst", "200", "Burst of that bucket (1 to 1000000).", Parsers.integer(1, 1_000_000));
    static final List<Flag<?>> FLAGS = List.of(BASE_DELAY, MAX_DELAY, FREQUENCY, BURST);

    static RetrySettings from(Flags.Values values) {
        ValueParsers.notShorter(values, MAX_DELAY, BASE_DELAY);
        return new RetrySettings(
                values.get(BASE_DELAY), values.get(MAX_DELAY), values.get(FREQUENCY), values.get(BURST));
    }
}
