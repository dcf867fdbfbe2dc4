package io.kyma.operator.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** When a Run times out and when to look at it next. */
public record RunTiming(Instant startTime, Optional<Duration> timeout) {
    public Optional<Instant> deadline() {
        return timeout.map(startTime::plus);
    }

    public boolean timedOut(Instant now) {
        return deadline().map(d -> !now.isBefore(d)).orElse(false);
    }

    /** The next poll: after the poll interval, or at the deadline if that comes first. */
    public Duration nextPoll(Instant now, Duration pollInterval) {
        return deadline()
                .map(d -> Duration.between(now, d))
                .filter(untilDeadline -> untilDeadline.compareTo(pollInterval) < 0)
                .map(d -> d.isNegative() ? Duration.ZERO : d)
                .orElse(pollInterval);
    }
}
