package io.kyma.operator.manager.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;

/**
 * Asks {@link HeapReturn} every few seconds whether the reconcile pool has been quiet long enough after the heap grew,
 * and if so requests one full collection, which, with the Deployment's {@code -XX:-ShrinkHeapInSteps} and
 * {@code -XX:MaxHeapFreeRatio}, shrinks the heap to the live data and uncommits the rest.
 */
public final class HeapReturner {
    private static final Logger LOG = LoggerFactory.getLogger(HeapReturner.class);
    private static final double MIB = 1024.0 * 1024.0;

    private final HeapReturn decision;
    private final ThreadPoolExecutor pool;
    private final Counter returns;
    private final Clock clock;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    private HeapReturner(HeapReturn decision, ThreadPoolExecutor pool, Counter returns, Clock clock) {
        this.decision = decision;
        this.pool = pool;
        this.returns = returns;
        this.clock = clock;
    }

    /**
     * Checks {@code pool} on {@code scheduler} every {@code quiet / 6} (1 to 5 s); does nothing when {@code quiet} is
     * zero.
     */
    public static void schedule(
            Duration quiet, ThreadPoolExecutor pool, Counter returns, ScheduledExecutorService scheduler, Clock clock) {
        if (quiet.isZero()) {
            return;
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        HeapReturner returner = new HeapReturner(
                new HeapReturn(quiet, minGain(heap.getMax()), heap.getCommitted(), clock), pool, returns, clock);
        long every = Math.max(1000, Math.min(5000, quiet.toMillis() / 6));
        scheduler.scheduleWithFixedDelay(returner::check, every, every, TimeUnit.MILLISECONDS);
    }

    /** An eighth of the heap's cap, at least 8 MiB: growth smaller than that is not worth a full collection. */
    static long minGain(long maxHeap) {
        return Math.max(8L << 20, maxHeap > 0 ? maxHeap / 8 : 0);
    }

    private void check() {
        try {
            long committed = memory.getHeapMemoryUsage().getCommitted();
            if (!decision.due(pool.getTaskCount(), pool.getActiveCount() > 0, committed)) {
                return;
            }
            long start = clock.millis();
            System.gc();
            MemoryUsage after = memory.getHeapMemoryUsage();
            decision.returned(after.getCommitted());
            returns.increment();
            LOG.info(
                    "Reconcile pool quiet: collected to return the heap a burst grew, committed {} MiB -> {} MiB"
                            + " ({} MiB live) in {} ms",
                    String.format("%.1f", committed / MIB),
                    String.format("%.1f", after.getCommitted() / MIB),
                    String.format("%.1f", after.getUsed() / MIB),
                    clock.millis() - start);
        } catch (RuntimeException e) {
            LOG.warn("Returning the heap failed", e);
        }
    }
}
