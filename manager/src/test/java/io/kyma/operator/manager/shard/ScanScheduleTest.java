package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class ScanScheduleTest {
    private static final Duration OFTEN = Duration.ofSeconds(30);
    private static final Duration SELDOM = Duration.ofSeconds(300);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ScanSchedule schedule = new ScanSchedule(clock, OFTEN, SELDOM);

    private void look(Set<Integer> held, boolean complete) {
        schedule.started();
        clock.advance(Duration.ofSeconds(5)); // the look itself takes a while
        schedule.ended(held, complete);
    }

    @Test
    void theFirstCheckLooks() {
        assertThat(schedule.due(Set.of(0))).isTrue();
    }

    @Test
    void whileTheShardsHeldStayTheSameACompleteLookIsRepeatedSeldomCountedFromItsStart() {
        look(Set.of(0, 1), true);
        clock.advance(SELDOM.minusSeconds(6));
        assertThat(schedule.due(Set.of(0, 1))).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(schedule.due(Set.of(0, 1)))
                .as("exactly the interval after the start")
                .isTrue();
    }

    @Test
    void whenTheShardsHeldChangeTheNextLookComesSooner() {
        look(Set.of(0, 1), true);
        clock.advance(OFTEN.minusSeconds(5));
        assertThat(schedule.due(Set.of(0, 1, 2))).as("a shard came").isTrue();
        assertThat(schedule.due(Set.of(0))).as("a shard went").isTrue();
        assertThat(schedule.due(Set.of(0, 1))).isFalse();
    }

    @Test
    void aLookThatStoppedEarlyIsTakenUpAgainSoon() {
        look(Set.of(0, 1), false);
        clock.advance(OFTEN.minusSeconds(6));
        assertThat(schedule.due(Set.of(0, 1))).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(schedule.due(Set.of(0, 1))).isTrue();
    }
}
