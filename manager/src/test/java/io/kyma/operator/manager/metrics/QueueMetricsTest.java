package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.kyma.operator.testing.MutableClock;

class QueueMetricsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final OperatorMetrics metrics = new OperatorMetrics();
    private final QueueMetrics queue = new QueueMetrics(metrics, clock);
    private final Map<String, Object> kyma = Map.of(Constants.CONTROLLER_NAME, "kyma");

    @Test
    void workInProgressIsMeasuredUntilTheReconcileEnds() {
        queue.measureWorkInProgress("kyma");
        assertThat(queue.longestRunningSeconds("kyma")).isZero();
        queue.reconciliationExecutionStarted(map("a"), kyma);
        clock.advance(Duration.ofSeconds(3));
        queue.reconciliationExecutionStarted(map("b"), kyma);
        clock.advance(Duration.ofSeconds(2));

        assertThat(queue.longestRunningSeconds("kyma")).isEqualTo(5.0);
        assertThat(queue.unfinishedWorkSeconds("kyma")).isEqualTo(7.0);
        assertThat(metrics.scrape())
                .contains(
                        "workqueue_longest_running_processor_seconds{name=\"kyma\"} 5.0",
                        "workqueue_unfinished_work_seconds{name=\"kyma\"} 7.0");

        queue.reconciliationExecutionFinished(map("a"), kyma);
        assertThat(queue.longestRunningSeconds("kyma")).isEqualTo(2.0);
        assertThat(metrics.workDuration("kyma").count()).isEqualTo(1);
        assertThat(metrics.workDuration("kyma").totalTime(TimeUnit.SECONDS)).isEqualTo(5.0);
        queue.reconciliationExecutionFinished(map("b"), kyma);
        assertThat(queue.unfinishedWorkSeconds("kyma")).isZero();
    }

    @Test
    void anExecutionThatFinishesWithoutHavingStartedIsReportedAsMissed() {
        List<String> missed = new ArrayList<>();
        queue.onMissedExecution((controller, resource) ->
                missed.add(controller + " " + resource.getMetadata().getName()));
        queue.reconciliationExecutionStarted(map("a"), kyma);
        queue.reconciliationExecutionFinished(map("a"), kyma);
        assertThat(missed).isEmpty();
        // JOSDK 5.2.3's executor when the primary is gone from the cache: finished, never started
        queue.reconciliationExecutionFinished(map("b"), kyma);
        assertThat(missed).containsExactly("kyma b");
    }

    @Test
    void aNextExecutionOfTheSameResourceFinishingOnAnotherWorkerIsNotMistakenForAMissedOne() throws Exception {
        List<String> missed = new CopyOnWriteArrayList<>();
        queue.onMissedExecution(
                (controller, resource) -> missed.add(resource.getMetadata().getName()));
        var otherWorker = Executors.newSingleThreadExecutor();
        try {
            // this worker's execution hands the next one of the same resource to another worker, which starts it
            // before this one's finished is called; the other one's finished comes last
            queue.reconciliationExecutionStarted(map("a"), kyma);
            otherWorker
                    .submit(() -> queue.reconciliationExecutionStarted(map("a"), kyma))
                    .get();
            queue.reconciliationExecutionFinished(map("a"), kyma);
            otherWorker
                    .submit(() -> queue.reconciliationExecutionFinished(map("a"), kyma))
                    .get();
            assertThat(missed).isEmpty();
        } finally {
            otherWorker.shutdownNow();
        }
    }

    private static ConfigMap map(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .endMetadata()
                .build();
    }
}
