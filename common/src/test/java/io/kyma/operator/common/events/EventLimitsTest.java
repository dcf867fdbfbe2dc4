package io.kyma.operator.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.common.events.EventLimits.Verdict;
import io.kyma.operator.testing.MutableClock;

class EventLimitsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
    private final EventLimits limits = new EventLimits(clock, 3, Duration.ofMinutes(5), Duration.ofMinutes(10), 2);

    @Test
    void anObjectSpendsItsBurstThenOneEventPerRefill() {
        for (int i = 0; i < 3; i++) {
            assertThat(limits.decide("a", "a" + i).verdict()).isEqualTo(Verdict.CREATE);
        }
        assertThat(limits.decide("a", "a3").verdict()).isEqualTo(Verdict.LIMITED);
        assertThat(limits.decide("b", "b0").verdict())
                .as("another object has its own share")
                .isEqualTo(Verdict.CREATE);
        clock.advance(Duration.ofMinutes(5));
        assertThat(limits.decide("a", "a4").verdict()).isEqualTo(Verdict.CREATE);
        assertThat(limits.decide("a", "a5").verdict()).isEqualTo(Verdict.LIMITED);
    }

    @Test
    void anIdenticalEventWithinTheWindowRaisesTheCountOfTheFirst() {
        assertThat(limits.decide("a", "same").verdict()).isEqualTo(Verdict.CREATE);
        limits.sent("same", "a.x1", 1, clock.instant());
        clock.advance(Duration.ofMinutes(9));
        EventLimits.Decision again = limits.decide("a", "same");
        assertThat(again.verdict()).isEqualTo(Verdict.AGGREGATE);
        assertThat(again.previous().name()).isEqualTo("a.x1");
        limits.sent("same", "a.x1", 2, again.previous().first());
        clock.advance(Duration.ofMinutes(11));
        assertThat(limits.decide("a", "same").verdict())
                .as("after the window a new Event")
                .isEqualTo(Verdict.CREATE);
    }

    @Test
    void stateIsKeptForABoundedNumberOfObjects() {
        for (int i = 0; i < 3; i++) {
            limits.decide("a", "a" + i);
        }
        assertThat(limits.decide("a", "a3").verdict()).isEqualTo(Verdict.LIMITED);
        limits.decide("b", "b");
        limits.decide("c", "c");
        assertThat(limits.decide("a", "a4").verdict())
                .as("a was forgotten when two other objects came after it")
                .isEqualTo(Verdict.CREATE);
    }
}
