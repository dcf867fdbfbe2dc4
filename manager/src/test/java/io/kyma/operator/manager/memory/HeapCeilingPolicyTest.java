package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class HeapCeilingPolicyTest {
    private static final long MIB = 1 << 20;
    /** The Deployment's old generation: four fifths of 29 % of 512 MiB. */
    private static final long CAP = 118 * MIB;

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
        assertThat(policy.observe(33 * MIB, 18 * MIB, CAP)).isFalse();
        assertThat(policy.observe(34 * MIB, 18 * MIB, CAP)).isTrue();
        assertThat(policy.observe(50 * MIB, 36 * MIB, CAP)).isFalse();
        assertThat(policy.observe(54 * MIB, 36 * MIB, CAP)).isTrue();
    }

    @Test
    void stepsAsideOnceTheCeilingComesNearTheCap() {
        assertThat(policy.ceiling(59 * MIB)).isLessThanOrEqualTo(CAP * 3 / 4);
        assertThat(policy.observe(89 * MIB, 59 * MIB, CAP)).isTrue();
        assertThat(policy.ceiling(60 * MIB)).isGreaterThan(CAP * 3 / 4);
        assertThat(policy.observe(117 * MIB, 60 * MIB, CAP))
                .as("82 MiB live at N = 4000: the collector's own collection at the cap")
                .isFalse();
        assertThat(policy.observe(89 * MIB, 59 * MIB, -1))
                .as("a cap the pool does not know")
                .isTrue();
    }

    @Test
    void collectionsItAskedForStayWithinTwoPercentOfTheTime() {
        assertThat(policy.observe(40 * MIB, 18 * MIB, CAP)).isTrue();
        policy.collected(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(4_899));
        assertThat(policy.observe(40 * MIB, 18 * MIB, CAP))
                .as("100 ms of pause buys 4.9 s without another")
                .isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(policy.observe(40 * MIB, 18 * MIB, CAP)).isTrue();
    }

    @Test
    void aCollectionThatTookNoTimeDoesNotHoldTheNextBack() {
        policy.collected(Duration.ZERO);
        assertThat(policy.observe(40 * MIB, 18 * MIB, CAP)).isTrue();
    }

    @Test
    void refusesAHeadroomThatIsNotPositive() {
        assertThatThrownBy(() -> new HeapCeilingPolicy(0, MIB, clock)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HeapCeilingPolicy(Double.NaN, MIB, clock))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HeapCeilingPolicy(0.5, -1, clock)).isInstanceOf(IllegalArgumentException.class);
    }
}
