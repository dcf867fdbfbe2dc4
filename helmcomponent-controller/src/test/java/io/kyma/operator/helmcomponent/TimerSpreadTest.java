package io.kyma.operator.helmcomponent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class TimerSpreadTest {
    @Test
    void aWaitGrowsByUpToTwoPercentOfItselfAndNeverShrinks() {
        TimerSpread most = new TimerSpread(() -> 0.999_999);
        TimerSpread least = new TimerSpread(() -> 0);
        assertThat(least.after(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
        assertThat(most.after(Duration.ofSeconds(1))).isBetween(Duration.ofMillis(1019), Duration.ofMillis(1020));
        assertThat(most.after(Duration.ofMillis(10)))
                .isBetween(Duration.ofMillis(10), Duration.ofMillis(10).plusNanos(200_000));
    }

    @Test
    void theSpreadIsAtMostATenthOfASecond() {
        TimerSpread most = new TimerSpread(() -> 0.999_999);
        assertThat(most.after(Duration.ofSeconds(66))).isBetween(Duration.ofMillis(66_099), Duration.ofMillis(66_100));
    }

    @Test
    void randomSpreadsStayInTheirBounds() {
        TimerSpread spread = TimerSpread.random();
        for (int i = 0; i < 1000; i++) {
            assertThat(spread.after(Duration.ofSeconds(11)))
                    .isBetween(Duration.ofSeconds(11), Duration.ofMillis(11_100));
        }
    }
}
