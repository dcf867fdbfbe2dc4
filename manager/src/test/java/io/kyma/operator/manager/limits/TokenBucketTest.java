package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class TokenBucketTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void theBurstIsFreeThenCallersQueueAtTheRate() {
        TokenBucket bucket = new TokenBucket(20, 30, clock);
        for (int i = 0; i < 30; i++) {
            assertThat(bucket.reserve()).as("token %d of the burst", i).isZero();
        }
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(50));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(150));
    }

    @Test
    void tokensAccrueAtTheRateUpToTheBurst() {
        TokenBucket bucket = new TokenBucket(10, 5, clock);
        for (int i = 0; i < 5; i++) {
            bucket.reserve();
        }
        clock.advance(Duration.ofMillis(250));
        assertThat(bucket.available()).isEqualTo(2.5);
        clock.advance(Duration.ofHours(1));
        assertThat(bucket.available()).isEqualTo(5.0);
    }

    @Test
    void threeHundredRequestsAtQps20Burst30TakeThirteenAndAHalfSeconds() {
        TokenBucket bucket = new TokenBucket(20, 30, clock);
        Duration last = Duration.ZERO;
        for (int i = 0; i < 300; i++) {
            last = bucket.reserve();
        }
        assertThat(last).isEqualTo(Duration.ofMillis((300 - 30) * 50));
    }

    @Test
    void reservationsAfterAWaitStartFromTheQueue() {
        TokenBucket bucket = new TokenBucket(1, 1, clock);
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofSeconds(1));
        clock.advance(Duration.ofMillis(500));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void rejectsANonPositiveRate() {
        assertThatThrownBy(() -> new TokenBucket(0, 1, clock)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(1, 0, clock)).isInstanceOf(IllegalArgumentException.class);
    }
}
