package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class RequeueLimiterTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<Duration> recorded = new ArrayList<>();

    private RequeueLimiter limiter(FairTokenQueue bucket) {
        return new RequeueLimiter(Duration.ofSeconds(1), Duration.ofSeconds(1000), bucket, clock, recorded::add);
    }

    @Test
    void backoffDoublesFromTheBaseAndIsCapped() {
        RequeueLimiter limiter = limiter(new FairTokenQueue(30, 200, clock));
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 13; i++) {
            delays.add(limiter.failed("a"));
        }
        assertThat(delays)
                .extracting(Duration::toSeconds)
                .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1000L, 1000L, 1000L);
        assertThat(limiter.failures("a")).isEqualTo(13);
        assertThat(limiter.backoff(10_000)).isEqualTo(Duration.ofSeconds(1000));
        assertThat(recorded).hasSize(13);
    }

    @Test
    void successForgetsTheBackoff() {
        RequeueLimiter limiter = limiter(new FairTokenQueue(30, 200, clock));
        limiter.failed("a");
        limiter.failed("a");
        assertThat(limiter.blockedFor("a")).contains(Duration.ofSeconds(2));
        limiter.succeeded("a");
        assertThat(limiter.blockedFor("a")).isEmpty();
        assertThat(limiter.failed("a")).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void blockedForCountsDownWithTheClock() {
        RequeueLimiter limiter = limiter(new FairTokenQueue(30, 200, clock));
        limiter.failed("a");
        clock.advance(Duration.ofMillis(400));
        assertThat(limiter.blockedFor("a")).contains(Duration.ofMillis(600));
        clock.advance(Duration.ofMillis(600));
        assertThat(limiter.blockedFor("a")).isEmpty();
        assertThat(limiter.blockedFor("never-failed")).isEmpty();
    }

    @Test
    void theDelayIsTheLongerOfBackoffAndBucketWait() {
        // A bucket of 2 per second with burst 1: the first failure gets its token at once, then the bucket queues.
        RequeueLimiter limiter = limiter(new FairTokenQueue(2, 1, clock));
        assertThat(limiter.failed("a")).isEqualTo(Duration.ofSeconds(1));
        assertThat(limiter.failed("b")).as("backoff 1 s beats bucket 0.5 s").isEqualTo(Duration.ofSeconds(1));
        for (int i = 0; i < 6; i++) {
            limiter.failed("c" + i);
        }
        assertThat(limiter.failed("d"))
                .as("the bucket's queue beats a first backoff")
                .isEqualTo(Duration.ofMillis(4000));
    }

    @Test
    void keysShareOneBucketButHaveTheirOwnBackoff() {
        FairTokenQueue shared = new FairTokenQueue(1, 1, clock);
        RequeueLimiter kymas = limiter(shared);
        RequeueLimiter components = limiter(shared);
        Duration total = Duration.ZERO;
        for (int i = 0; i < 5; i++) {
            total = kymas.failed("kyma-" + i);
            total = components.failed("component-" + i);
        }
        assertThat(total).as("10 failures through one bucket of 1/s").isEqualTo(Duration.ofSeconds(9));
        assertThat(kymas.failures("kyma-0")).isEqualTo(1);
    }

    @Test
    void aNewEpochStartsAtTheFirstBackoffAndStaleKeysAreForgotten() {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        RequeueLimiter limiter = new RequeueLimiter(
                Duration.ofSeconds(1), Duration.ofSeconds(8), new FairTokenQueue(1000, 1000, clock), clock, d -> {});
        limiter.failed("a", "1", "ns");
        assertThat(limiter.failed("a", "1", "ns")).isEqualTo(Duration.ofSeconds(2));
        assertThat(limiter.blockedFor("a", "2")).isEmpty();
        assertThat(limiter.failed("a", "2", "ns")).isEqualTo(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(10));
        for (int i = 0; i < 1022; i++) {
            limiter.failed("k" + i, "1", "ns");
        }
        assertThat(limiter.tracked())
                .as("the key not tried for longer than the longest backoff")
                .isEqualTo(1022);
    }

    @Test
    void aNamespaceFailingFastDelaysAnotherNamespacesRetryByOneTokenNotByItsQueue() {
        // 30 tokens a second, burst 200, as shipped: 2,000 failures of one namespace leave 60 s of queue.
        RequeueLimiter limiter = limiter(new FairTokenQueue(30, 200, clock));
        Duration noisiest = Duration.ZERO;
        for (int i = 0; i < 2000; i++) {
            noisiest = limiter.failed("noisy-" + i, "1", "noisy");
        }
        assertThat(noisiest)
                .as("1800 tokens at 30 a second, in whole milliseconds")
                .isBetween(Duration.ofSeconds(60), Duration.ofMillis(60_002));
        Duration quiet = limiter.failed("quiet", "1", "quiet");
        assertThat(quiet)
                .as("its own first backoff, not the noisy namespace's line")
                .isEqualTo(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(limiter.blockedFor("quiet", "1")).isEmpty();
        assertThat(limiter.blockedFor("noisy-1999", "1"))
                .as("still behind its own namespace")
                .hasValueSatisfying(d -> assertThat(d).isGreaterThan(Duration.ofSeconds(58)));
    }

    @Test
    void aRetryPromisedBeforeAnotherNamespaceStartedWaitingIsDeferredUntilItsTokenComes() {
        RequeueLimiter limiter = new RequeueLimiter(
                Duration.ofMillis(1), Duration.ofSeconds(10), new FairTokenQueue(10, 1, clock), clock, d -> {});
        limiter.failed("a0", "1", "a");
        assertThat(limiter.failed("a1", "1", "a")).isEqualTo(Duration.ofMillis(100));
        assertThat(limiter.failed("a2", "1", "a"))
                .as("promised before b started waiting")
                .isEqualTo(Duration.ofMillis(200));
        assertThat(limiter.failed("b0", "1", "b")).as("after a1, before a2").isEqualTo(Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(200));
        assertThat(limiter.blockedFor("a1", "1")).isEmpty();
        assertThat(limiter.blockedFor("b0", "1")).isEmpty();
        assertThat(limiter.blockedFor("a2", "1")).as("deferred by b's turn").contains(Duration.ofMillis(100));
        limiter.succeeded("b0");
        assertThat(limiter.blockedFor("b0", "1")).isEmpty();
    }

    @Test
    void aRetryStillWaitingForItsTokenIsNotForgottenAsStale() {
        // backoff at most 10 ms; a bucket of 1 a second: after 1024 failures most wait far longer for their tokens
        RequeueLimiter limiter = new RequeueLimiter(
                Duration.ofMillis(10), Duration.ofMillis(10), new FairTokenQueue(1, 1, clock), clock, d -> {});
        for (int i = 0; i < 1023; i++) {
            limiter.failed("k" + i, "1", "ns");
        }
        clock.advance(Duration.ofSeconds(100));
        limiter.failed("k1023", "1", "ns");
        assertThat(limiter.tracked())
                .as("only the 101 whose tokens came are forgotten")
                .isEqualTo(1024 - 101);
        assertThat(limiter.blockedFor("k1022", "1"))
                .as("still in line")
                .hasValueSatisfying(d -> assertThat(d).isGreaterThan(Duration.ofSeconds(900)));
    }
}
