package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class HeapReturnPolicyTest {
    private static final long MIB = 1 << 20;
    private static final Duration CHECK = Duration.ofSeconds(5);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final HeapReturnPolicy policy = new HeapReturnPolicy(Duration.ofSeconds(30), 16 * MIB, 20 * MIB, clock);
    private long work = 100;

    /** One check {@code CHECK} after the last, the pool having started {@code started} tasks in between. */
    private boolean check(long started, int queued, long committedMib) {
        clock.advance(CHECK);
        work += started;
        return policy.observe(work, queued, committedMib * MIB);
    }

    @Test
    void collectsOnceThePoolHasBeenQuietForTheWholePeriodAfterTheHeapGrew() {
        assertThat(check(500, 40, 148)).as("a burst").isFalse();
        for (int i = 0; i < 5; i++) {
            assertThat(check(0, 0, 148)).as("quiet for %s s", 5 * (i + 1)).isFalse();
        }
        assertThat(check(0, 0, 148)).as("quiet for 30 s").isTrue();
    }

    @Test
    void aTrickleOfReconcilesIsQuietAndABurstIsNot() {
        check(500, 0, 148);
        for (int i = 0; i < 5; i++) {
            check(5, 0, 148);
        }
        assertThat(check(5, 0, 148)).as("one reconcile a second, for 30 s").isTrue();
        policy.returned(30 * MIB);

        check(6, 0, 148);
        for (int i = 0; i < 5; i++) {
            assertThat(check(0, 0, 148)).isFalse();
        }
        assertThat(check(0, 0, 148)).as("30 s after more than one a second").isTrue();
    }

    @Test
    void reconcilesWaitingForAWorkerAreNotQuiet() {
        check(500, 0, 148);
        for (int i = 0; i < 5; i++) {
            check(0, 0, 148);
        }
        assertThat(check(0, 3, 148)).isFalse();
        for (int i = 0; i < 5; i++) {
            assertThat(check(0, 0, 148)).isFalse();
        }
        assertThat(check(0, 0, 148)).isTrue();
    }

    @Test
    void doesNotCollectAgainUntilTheHeapGrowsByTheMinimumOnceMore() {
        quietAfterBurst(148);
        policy.returned(30 * MIB);
        for (int i = 0; i < 20; i++) {
            assertThat(check(0, 0, 30)).as("nothing grew since").isFalse();
        }
        assertThat(check(0, 0, 45)).as("grew by less than the minimum").isFalse();
        assertThat(check(0, 0, 46)).as("grew by the minimum").isTrue();
    }

    @Test
    void growthIsMeasuredFromTheLeastHeapSinceTheLastReturn() {
        quietAfterBurst(148);
        policy.returned(140 * MIB);
        check(0, 0, 100);
        assertThat(check(0, 0, 115)).isFalse();
        assertThat(check(0, 0, 116)).as("16 MiB above the least, 100 MiB").isTrue();
    }

    @Test
    void aHeapThatDidNotShrinkIsCollectedAgainOnlyAfterAnotherBurst() {
        quietAfterBurst(148);
        policy.returned(146 * MIB);
        for (int i = 0; i < 20; i++) {
            assertThat(check(0, 0, 148)).isFalse();
        }
        // the burst deletes what the heap held: the heap does not grow, and a collection would free much of it
        check(999, 50, 148);
        for (int i = 0; i < 6; i++) {
            assertThat(check(0, 0, 148))
                    .as("999 reconciles since the last return")
                    .isFalse();
        }
        assertThat(check(1, 0, 148))
                .as("1000 reconciles since the last return, quiet for 30 s")
                .isTrue();
    }

    @Test
    void growthIsMeasuredFromTheHeapAtStart() {
        check(7, 0, 35);
        for (int i = 0; i < 6; i++) {
            check(0, 0, 35);
        }
        assertThat(check(0, 0, 35)).isFalse();
        assertThat(check(0, 0, 36)).isTrue();
    }

    @Test
    void refusesAQuietPeriodOfZero() {
        assertThatThrownBy(() -> new HeapReturnPolicy(Duration.ZERO, MIB, 0, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMinimumGainIsAnEighthOfTheCapAndAtLeast8MiB() {
        assertThat(HeapReturner.minGain(148 * MIB)).isEqualTo(148 * MIB / 8);
        assertThat(HeapReturner.minGain(32 * MIB)).isEqualTo(8 * MIB);
        assertThat(HeapReturner.minGain(-1)).isEqualTo(8 * MIB);
    }

    private void quietAfterBurst(long committedMib) {
        check(500, 40, committedMib);
        for (int i = 0; i < 5; i++) {
            check(0, 0, committedMib);
        }
        assertThat(check(0, 0, committedMib)).isTrue();
    }
}
