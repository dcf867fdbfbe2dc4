package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class HeapCeilingPolicyTest {
    private static final long MIB = 1 << 20;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final HeapCeilingPolicy policy = new HeapCeilingPolicy(0.5, 16 * MIB, clock);

    @Test
    void theCeilingIsTheLiveDataAndAShareOfItButNeverLessThanTheMinimumHeadroom() {
        assertThat(policy.ceiling(0)).as("before the first full collection").isEqualTo(16 * MIB);
        assertThat(policy.ceiling(18 * MIB)).as("small live data: the minimum").isEqualTo(34 * MIB);
        assertThat(policy.ceiling(82 * MIB)).as("half of 82 MiB").isEqualTo(123 * MIB);
        assertThat(policy.ceiling(-1)).as("a pool that reports nothing").isEqualTo(16 * MIB);
    }

    @Test
    void collectsOnlyOnceTheOldGenerationReachesItsCeiling() {
        assertThat(policy.observe(33 * MIB, 18 * MIB)).isFalse();
        assertThat(policy.observe(34 * MIB, 18 * MIB)).isTrue();
        assertThat(policy.observe(120 * MIB, 82 * MIB)).isFalse();
        assertThat(policy.observe(124 * MIB, 82 * MIB)).isTrue();
    }

    @Test
    void collectionsItAskedForStayWithinTwoPercentOfTheTime() {
        assertThat(policy.observe(40 * MIB, 18 * MIB)).isTrue();
        policy.collected(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(4_899));
        assertThat(policy.observe(40 * MIB, 18 * MIB))
                .as("100 ms of pause buys 4.9 s without another")
                .isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(policy.observe(40 * MIB, 18 * MIB)).isTrue();
    }

    @Test
    void aCollectionThatTookNoTimeDoesNotHoldTheNextBack() {
        policy.collected(Duration.ZERO);
        assertThat(policy.observe(40 * MIB, 18 * MIB)).isTrue();
    }

    @Test
    void refusesAHeadroomThatIsNotPositive() {
        assertThatThrownBy(() -> new HeapCeilingPolicy(0, MIB, clock)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HeapCeilingPolicy(Double.NaN, MIB, clock))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HeapCeilingPolicy(0.5, -1, clock)).isInstanceOf(IllegalArgumentException.class);
    }
}
