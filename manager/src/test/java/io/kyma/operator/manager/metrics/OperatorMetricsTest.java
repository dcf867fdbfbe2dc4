package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class OperatorMetricsTest {
    private final OperatorMetrics metrics = new OperatorMetrics();

    @Test
    void aTimerOrCounterAskedForAgainIsTheSameMeterWithItsBuckets() {
        assertThat(metrics.workDuration("kyma")).isSameAs(metrics.workDuration("kyma"));
        assertThat(metrics.workDuration("kyma")).isNotSameAs(metrics.workDuration("helmcomponent"));
        assertThat(metrics.reconciles("kyma", "success")).isSameAs(metrics.reconciles("kyma", "success"));
        assertThat(metrics.reconciles("kyma", "success")).isNotSameAs(metrics.reconciles("kyma", "error"));

        metrics.workDuration("kyma").record(Duration.ofMillis(3));
        metrics.workDuration("kyma").record(Duration.ofMillis(4));
        metrics.reconciles("kyma", "success").increment();
        String scrape = metrics.scrape();
        assertThat(scrape)
                .contains("workqueue_work_duration_seconds_count{name=\"kyma\"} 2")
                .contains("workqueue_work_duration_seconds_bucket{name=\"kyma\",le=")
                .contains("controller_runtime_reconcile_total{controller=\"kyma\",result=\"success\"} 1");
    }
}
