package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class HeapReturnTest {
    private static final long MIB = 1 << 20;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final HeapReturn heap = new HeapReturn(Duration.ofSeconds(30), 16 * MIB, 20 * MIB, clock);

    @Test
    void collectsOnceThePoolHasBeenQuietAfterTheHeapGrew() {
        assertThat(heap.due(100, false, 148 * MIB)).isFalse();
        clock.advance(Duration.ofSeconds(29));
        assertThat(heap.due(100, false, 148 * MIB)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(heap.due(100, false, 148 * MIB)).isTrue();
    }

    @Test
    void newWorkOrARunningTaskStartsTheQuietPeriodAgain() {
        heap.due(100, false, 148 * MIB);
        clock.advance(Duration.ofSeconds(25));
        assertThat(heap.due(101, false, 148 * MIB)).isFalse();
        clock.advance(Duration.ofSeconds(25));
        assertThat(heap.due(101, true, 148 * MIB)).isFalse();
        clock.advance(Duration.ofSeconds(29));
        assertThat(heap.due(101, false, 148 * MIB)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(heap.due(101, false, 148 * MIB)).isTrue();
    }

    @Test
    void doesNotCollectAgainUntilTheHeapGrowsByTheMinimumOnceMore() {
        heap.due(100, false, 148 * MIB);
        clock.advance(Duration.ofSeconds(30));
        assertThat(heap.due(100, false, 148 * MIB)).isTrue();
        heap.returned(30 * MIB);

        clock.advance(Duration.ofMinutes(10));
        assertThat(heap.due(100, false, 30 * MIB)).as("nothing grew since").isFalse();
        assertThat(heap.due(100, false, 45 * MIB))
                .as("grew by less than the minimum")
                .isFalse();
        assertThat(heap.due(100, false, 46 * MIB)).as("grew by the minimum").isTrue();
    }

    @Test
    void aHeapThatDidNotShrinkIsNotCollectedOverAndOver() {
        heap.due(100, false, 148 * MIB);
        clock.advance(Duration.ofSeconds(30));
        assertThat(heap.due(100, false, 148 * MIB)).isTrue();
        heap.returned(140 * MIB);
        clock.advance(Duration.ofMinutes(10));
        assertThat(heap.due(100, false, 148 * MIB)).isFalse();
    }

    @Test
    void growthIsMeasuredFromTheHeapAtStart() {
        heap.due(7, false, 35 * MIB);
        clock.advance(Duration.ofSeconds(30));
        assertThat(heap.due(7, false, 35 * MIB)).isFalse();
        assertThat(heap.due(7, false, 36 * MIB)).isTrue();
    }

    @Test
    void refusesAQuietPeriodOfZero() {
        assertThatThrownBy(() -> new HeapReturn(Duration.ZERO, MIB, 0, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMinimumGainIsAnEighthOfTheCapAndAtLeast8MiB() {
        assertThat(HeapReturner.minGain(148 * MIB)).isEqualTo(148 * MIB / 8);
        assertThat(HeapReturner.minGain(32 * MIB)).isEqualTo(8 * MIB);
        assertThat(HeapReturner.minGain(-1)).isEqualTo(8 * MIB);
    }
}
