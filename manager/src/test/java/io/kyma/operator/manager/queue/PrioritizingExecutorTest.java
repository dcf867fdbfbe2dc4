package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class PrioritizingExecutorTest {

    @Test
    void aTaskMarkedOnTheSubmittingThreadRunsAfterTheDueOnesQueuedAfterIt() throws InterruptedException {
        PrioritizingExecutor pool = new PrioritizingExecutor(1, Duration.ofSeconds(30), Clock.systemUTC());
        try {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = new CopyOnWriteArrayList<>();
            pool.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();

            pool.next("tenant", true);
            pool.execute(() -> ran.add("resync"));
            pool.execute(() -> ran.add("due-1")); // the mark was for one task only
            pool.execute(() -> ran.add("due-2"));
            assertThat(pool.queuedCanWait()).isEqualTo(1);
            assertThat(pool.queuedDue()).isEqualTo(2);

            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("due-1", "due-2", "resync");
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
