package io.kyma.operator.manager;

import java.time.Clock;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.kyma.operator.common.cache.RecentWrites;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.manager.config.ReconcileSettings;
import io.kyma.operator.manager.config.RetrySettings;
import io.kyma.operator.manager.guard.GuardedReconciler;
import io.kyma.operator.manager.guard.Guards;
import io.kyma.operator.manager.guard.MissedExecutions;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;
import io.kyma.operator.manager.queue.PrioritizingExecutor;
import io.kyma.operator.manager.shard.Sharding;

/**
 * Registers each controller with the operator the same way: on the watched namespace, its informer's store, this
 * replica's shard, the runtime's retry and resync, behind its guard, its priority told to the pool and its metrics
 * registered; then the controller's own wiring.
 */
final class Registration {
    private final Operator operator;
    private final ReconcileSettings reconcile;
    private final RetrySettings retry;
    private final Sharding sharding;
    private final Guards guards;
    private final PrioritizingExecutor pool;
    private final QueueMetrics queueMetrics;
    private final MissedExecutions missedExecutions;
    private final OperatorMetrics metrics;
    private final Clock clock;
    private final Events events;

    Registration(
            Operator operator,
            ReconcileSettings reconcile,
            RetrySettings retry,
            Sharding sharding,
            Guards guards,
            PrioritizingExecutor pool,
            QueueMetrics queueMetrics,
            MissedExecutions missedExecutions,
            OperatorMetrics metrics,
            Clock clock,
            Events events) {
        this.operator = operator;
        this.reconcile = reconcile;
        this.retry = retry;
        this.sharding = sharding;
        this.guards = guards;
        this.pool = pool;
        this.queueMetrics = queueMetrics;
        this.missedExecutions = missedExecutions;
        this.metrics = metrics;
        this.clock = clock;
        this.events = events;
    }

    @SuppressWarnings("unchecked")
    <P extends HasMetadata> void register(ControllerSpec<P> spec) {
        var configuration = operator.getConfigurationService().getConfigurationFor(spec.reconciler());
        var overrider = ControllerConfigurationOverrider.override(configuration);
        reconcile.namespace().ifPresentOrElse(overrider::settingNamespace, overrider::watchingAllNamespaces);
        // Failures are turned into limited reschedules by the guard; JOSDK's own retry is only a safety net.
        overrider.withRetry(new GenericRetry()
                .setInitialInterval(retry.baseDelay().toMillis())
                .setIntervalMultiplier(2)
                .setMaxInterval(retry.maxDelay().toMillis())
                .withoutMaxAttempts());
        overrider.withReconciliationMaxInterval(reconcile.syncPeriod());
        overrider.withItemStore(spec.store());
        sharding.configure(
                overrider, spec.reconciler() instanceof Cleaner<?> ? configuration.getFinalizerName() : null);
        // Unpaged, a relist of tens of thousands of objects outlasts the client's request timeout and never succeeds.
        overrider.withInformerListLimit(
                reconcile.informerListLimit() > 0 ? (long) reconcile.informerListLimit() : null);
        var built = overrider.build();
        String name = built.getName();
        pool.prioritize(name, spec.priority());
        metrics.maxConcurrentReconciles(name, reconcile.maxConcurrentReconciles());
        queueMetrics.measureWorkInProgress(name);
        metrics.missedExecutions(name);
        // Like controller-runtime, every series exists from the start, so rates and alerts see a zero.
        for (String result : new String[] {"success", "error", "requeue", "requeue_after"}) {
            metrics.reconciles(name, result);
        }
        metrics.reconcileErrors(name);
        metrics.terminalReconcileErrors(name);
        metrics.reconcileConflicts(name);
        metrics.statusWriteRefusals(name);
        metrics.queueRetries(name);
        metrics.queueAdds(name);
        metrics.queueDepth(name);
        metrics.queueDuration(name);
        Controller<P> controller = (Controller<P>) operator.register(
                GuardedReconciler.wrap(spec.reconciler(), guards.forController(name), sharding.responder()), built);
        missedExecutions.register(controller);
        measureCache(spec.store().recentWrites(), name, metrics);
        spec.wiring()
                .wire(new ControllerSpec.Registered<>(spec.store(), controller, metrics, queueMetrics, clock, events));
    }

    private static void measureCache(RecentWrites recent, String cache, OperatorMetrics metrics) {
        metrics.gauge("kyma_operator_temporary_cache_entries", recent, RecentWrites::size, "cache", cache);
        metrics.counter(
                "kyma_operator_temporary_cache_refused",
                "Write answers not kept for read after write because the cache was full",
                recent,
                RecentWrites::refused,
                "cache",
                cache);
        metrics.counter(
                "kyma_operator_temporary_cache_restored",
                "Reconciles handed the controller's last write because a late watch event had taken it out of JOSDK's"
                        + " temporary cache",
                recent,
                RecentWrites::restored,
                "cache",
                cache);
    }
}
