package io.kyma.operator.manager.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The metrics every process exports, registered on the Prometheus registry under Micrometer's: {@code process_*} under
 * the names Go's client uses (resident memory, CPU seconds, open fds, start time) and the JVM's memory, GC, threads
 * and classes, from the Prometheus client's own collectors.
 */
public final class ProcessAndJvm {
    private ProcessAndJvm() {}

    /**
     * One collector at a time rather than {@code JvmMetrics}, which keeps every registry it served in a static set;
     * without the allocation counter, which adds a listener to the JVM's collectors that would outlive the registry.
     */
    static PrometheusMeterRegistry registeredOn(PrometheusMeterRegistry meters) {
        PrometheusRegistry registry = meters.getPrometheusRegistry();
        ProcessMetrics.builder().register(registry);
        JvmMemoryMetrics.builder().register(registry);
        JvmGarbageCollectorMetrics.builder().register(registry);
        JvmThreadsMetrics.builder().register(registry);
        JvmClassLoadingMetrics.builder().register(registry);
        JvmBufferPoolMetrics.builder().register(registry);
        JvmCompilationMetrics.builder().register(registry);
        JvmRuntimeInfoMetric.builder().register(registry);
        return meters;
    }

    /**
     * {@code kyma_operator_build_info}: 1, with the version and commit as labels; an info metric of its own, as
     * Micrometer would strip the {@code _info} suffix.
     */
    public static void buildInfo(PrometheusMeterRegistry meters, String version, String commit) {
        PrometheusRegistry registry = meters.getPrometheusRegistry();
        Info.builder()
                .name("kyma_operator_build_info")
                .help("The version and commit of the running build")
                .labelNames("version", "commit")
                .register(registry)
                .addLabelValues(version, commit);
    }
}
