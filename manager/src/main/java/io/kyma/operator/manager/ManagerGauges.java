package io.kyma.operator.manager;

import java.nio.file.Path;

import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.manager.metrics.MemoryLimit;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.ProcessAndJvm;
import io.kyma.operator.manager.queue.PrioritizingExecutor;

/** The manager's own gauges: its queue, its caches, its build, its memory limit, its leadership. */
final class ManagerGauges {
    private ManagerGauges() {}

    /** @param manager the gauge's source, held weakly like every gauge's: the manager itself, which lives as long */
    static void register(OperatorMetrics metrics, PrioritizingExecutor pool, String leaseName, KymaOperator manager) {
        metrics.gauge("kyma_operator_reconciles_queued", pool, PrioritizingExecutor::queuedDue, "priority", "due");
        metrics.gauge(
                "kyma_operator_reconciles_queued", pool, PrioritizingExecutor::queuedCanWait, "priority", "can-wait");
        metrics.counter(
                "kyma_operator_lean_cache_fallbacks",
                "Informer objects kept whole because making them lean failed",
                LeanCache.class,
                c -> LeanCache.fallbacks());
        Version version = Version.current();
        ProcessAndJvm.buildInfo(metrics.registry(), version.version(), version.commit());
        MemoryLimit.of(Path.of("/sys/fs/cgroup"))
                .ifPresent(limit -> metrics.constant(
                        "kyma_operator_memory_limit_bytes",
                        "The container's memory limit (its cgroup's), absent without one",
                        limit));
        // client-go's name: 1 while this replica reconciles (always without leader election), else 0
        metrics.gauge("leader_election_master_status", manager, m -> m.leading() ? 1 : 0, "name", leaseName);
    }
}
