package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class RunTimingTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void withoutATimeoutARunNeverTimesOutAndPollsAtItsInterval() {
        RunTiming timing = new RunTiming(START, Optional.empty());
        assertThat(timing.timedOut(START.plus(Duration.ofDays(365)))).isFalse();
        assertThat(timing.nextPoll(START, Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void theDeadlineIsStartPlusTimeoutAndTheLastPollLandsOnIt() {
        RunTiming timing = new RunTiming(START, Optional.of(Duration.ofSeconds(12)));
        assertThat(timing.deadline()).contains(START.plusSeconds(12));
        assertThat(timing.nextPoll(START.plusSeconds(5), Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(5));
        assertThat(timing.nextPoll(START.plusSeconds(10), Duration.ofSeconds(5)))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(timing.timedOut(START.plusMillis(11_999))).isFalse();
        assertThat(timing.timedOut(START.plusSeconds(12))).isTrue();
        assertThat(timing.nextPoll(START.plusSeconds(13), Duration.ofSeconds(5)))
                .isZero();
    }
}
