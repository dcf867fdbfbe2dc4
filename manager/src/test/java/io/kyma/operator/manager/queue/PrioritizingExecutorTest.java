package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.MutableClock;

class PrioritizingExecutorTest {
    /** Stands still: no task that can wait is ever owed a turn for having waited past the pool's 30 s. */
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void aReconcileItsControllerSaysCanWaitRunsAfterTheDueOnesQueuedAfterIt() throws InterruptedException {
        PrioritizingExecutor pool = new PrioritizingExecutor(1, Duration.ofSeconds(30), clock);
        try {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = new CopyOnWriteArrayList<>();
            pool.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertThat(busy.await(HangCatcher.STEP.toMinutes(), TimeUnit.MINUTES))
                    .isTrue();

            pool.prioritize("kyma", kyma -> kyma.getMetadata().getName().equals("ready"));
            pool.submissions().reconcileCustomResource(kyma("ready"), null, Map.of(Constants.CONTROLLER_NAME, "kyma"));
            pool.execute(() -> ran.add("resync"));
            pool.execute(() -> ran.add("due-1")); // the mark was for one task only
            pool.execute(() -> ran.add("due-2"));
            assertThat(pool.queuedCanWait()).isEqualTo(1);
            assertThat(pool.queuedDue()).isEqualTo(2);

            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(HangCatcher.STEP.toMinutes(), TimeUnit.MINUTES))
                    .isTrue();
            assertThat(ran).containsExactly("due-1", "due-2", "resync");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aControllerThatCannotTellMakesItsReconcileDue() throws InterruptedException {
        PrioritizingExecutor pool = new PrioritizingExecutor(1, Duration.ofSeconds(30), clock);
        try {
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> await(release));
            pool.prioritize("kyma", kyma -> {
                throw new IllegalStateException("no status");
            });
            pool.submissions().reconcileCustomResource(kyma("odd"), null, Map.of(Constants.CONTROLLER_NAME, "kyma"));
            pool.execute(() -> {});
            assertThat(pool.queuedDue()).isEqualTo(1);
            assertThat(pool.queuedCanWait()).isZero();
            release.countDown();
        } finally {
            pool.shutdownNow();
        }
    }

    private static Kyma kyma(String name) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace("tenant").build());
        return kyma;
    }

    /** Holds the worker until the test lets it go (or ends it: shutdownNow interrupts it). */
    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
