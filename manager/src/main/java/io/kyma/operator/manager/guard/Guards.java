package io.kyma.operator.manager.guard;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kyma.operator.manager.config.ReconcileSettings;
import io.kyma.operator.manager.config.RetrySettings;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.OperatorMetrics;

/**
 * Makes each controller's {@link ReconcileGuard}: one retry limiter and one global gate shared by all controllers, a
 * reconcile timeout and a resync each.
 */
public final class Guards {
    /** How often the reconciles that did not begin in time are looked for. */
    static final Duration SWEEP = Duration.ofSeconds(5);

    private final RequeueLimiter limiter;
    private final GlobalGate gate;
    private final Duration timeout;
    private final Duration syncPeriod;
    private final Clock clock;
    private final ScheduledExecutorService watchdog;
    private final OperatorMetrics metrics;
    private final LateReconciles late;

    /**
     * @param reconcile its {@code maxReconcileRate}, reconciles per second across all controllers (0 leaves the gate
     *     open), its reconcile timeout and sync period
     * @param watchdog the thread that interrupts reconciles running past {@code timeout}, and delivers the reconciles
     *     that did not begin in time through {@code missed}
     */
    public Guards(
            RetrySettings retry,
            ReconcileSettings reconcile,
            Clock clock,
            ScheduledExecutorService watchdog,
            OperatorMetrics metrics,
            MissedExecutions missed) {
        this.limiter = new RequeueLimiter(
                retry.baseDelay(),
                retry.maxDelay(),
                new FairTokenQueue(retry.frequency(), retry.burst(), clock),
                clock,
                metrics.requeueLimiterWait()::record);
        // registered with the gate off too, so that the dashboard's panel and rates see an empty histogram
        var gateWait = metrics.globalGateWait();
        double maxReconcileRate = reconcile.maxReconcileRate();
        this.gate = maxReconcileRate > 0
                ? new GlobalGate(
                        new FairTokenQueue(maxReconcileRate, (int) Math.max(1, Math.ceil(maxReconcileRate)), clock),
                        gateWait::record,
                        clock)
                : GlobalGate.OPEN;
        this.timeout = reconcile.reconcileTimeout();
        this.syncPeriod = reconcile.syncPeriod();
        this.clock = clock;
        this.watchdog = watchdog;
        this.metrics = metrics;
        this.late = new LateReconciles(clock);
        watchdog.scheduleWithFixedDelay(
                () -> late.overdue().stream()
                        .filter(due -> !missed.deliver(due))
                        .forEach(late::again),
                SWEEP.toMillis(),
                SWEEP.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    public ReconcileGuard forController(String controller) {
        return new ReconcileGuard(controller, limiter, gate, timeout, syncPeriod, clock, watchdog, metrics, late);
    }
}
