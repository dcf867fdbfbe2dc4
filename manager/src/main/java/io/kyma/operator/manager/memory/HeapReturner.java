package io.kyma.operator.manager.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.manager.config.ReconcileSettings;
import io.micrometer.core.instrument.Counter;

/**
 * Asks {@link HeapReturnPolicy} every few seconds whether to collect, and if so requests full collections until the
 * heap stops shrinking (at most {@link #MAX_COLLECTIONS}), which with the serial collector shrinks the heap to the
 * live data and the room {@code -XX:MaxHeapFreeRatio} allows, narrowed to
 * {@link ReconcileSettings#HEAP_RETURN_MAX_FREE} % for the return, and uncommits the rest. On its own thread ("heap"), which also runs the {@link HeapCeiling}: a
 * concurrent collector's {@code System.gc()} blocks the caller for a whole cycle.
 */
public final class HeapReturner {
    private static final Logger LOG = LoggerFactory.getLogger(HeapReturner.class);
    private static final double MIB = 1024.0 * 1024.0;
    /**
     * The serial collector damps shrinking over consecutive full collections (none of the excess at the first, 10 %,
     * 40 %, then all of it from the fourth), so that a program that collects between phases does not give back what
     * the next phase grows again; the heap a burst left is given back in full by the fourth. Shrinking at once instead
     * ({@code -XX:-ShrinkHeapInSteps}) shrank the heap at every full collection during a burst as well, and it grew
     * again: 25 full collections against 6 at N = 4000 ({@code against-go/n4000-shrink-at-once}, on a slower day).
     */
    static final int MAX_COLLECTIONS = 4;

    private final HeapReturnPolicy policy;
    private final ThreadPoolExecutor pool;
    private final Counter returns;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Optional<FreeRatios> ratios = FreeRatios.ofThisJvm();

    private HeapReturner(HeapReturnPolicy policy, ThreadPoolExecutor pool, Counter returns) {
        this.policy = policy;
        this.pool = pool;
        this.returns = returns;
    }

    /**
     * Watches {@code pool} every {@code quiet / 6} (1 to 5 s) until the pool is shut down, and keeps the old
     * generation under its {@link HeapCeiling}; each part off when its setting is zero.
     */
    public static void start(
            ReconcileSettings settings, ThreadPoolExecutor pool, Function<String, Counter> collections, Clock clock) {
        Duration quiet = settings.heapReturnAfter();
        Optional<MemoryPoolMXBean> old =
                settings.heapHeadroom() > 0 ? HeapCeiling.serialOldGeneration() : Optional.empty();
        if (quiet.isZero() && old.isEmpty()) {
            return;
        }
        if (VmOptions.explicitCollectionsIgnored()) {
            LOG.warn("Heap return and ceiling off: this JVM ignores System.gc() (-XX:+DisableExplicitGC), and both"
                    + " need it");
            return;
        }
        ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("heap"));
        Runnable stopWithPool = () -> {
            if (pool.isShutdown()) {
                // the manager stopped: its pool with it
                thread.shutdown();
            }
        };
        thread.scheduleWithFixedDelay(stopWithPool, 1, 1, TimeUnit.SECONDS);
        old.ifPresent(generation -> {
            HeapCeilingPolicy policy = new HeapCeilingPolicy(settings.heapHeadroom(), HeapCeiling.MIN_HEADROOM, clock);
            HeapCeiling ceiling = new HeapCeiling(policy, generation, collections.apply("ceiling"));
            thread.scheduleWithFixedDelay(ceiling::check, 1, 1, TimeUnit.SECONDS);
        });
        if (!quiet.isZero()) {
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            HeapReturnPolicy policy = new HeapReturnPolicy(quiet, minGain(heap.getMax()), heap.getCommitted(), clock);
            long everyMillis = Math.max(1000, Math.min(5000, quiet.toMillis() / 6));
            HeapReturner returner = new HeapReturner(policy, pool, collections.apply("return"));
            thread.scheduleWithFixedDelay(returner::check, everyMillis, everyMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** An eighth of the heap's cap, at least 8 MiB: growth smaller than that is not worth a full collection. */
    static long minGain(long maxHeap) {
        return Math.max(8L << 20, maxHeap > 0 ? maxHeap / 8 : 0);
    }

    private void check() {
        try {
            long committed = memory.getHeapMemoryUsage().getCommitted();
            if (!policy.observe(pool.getTaskCount(), pool.getQueue().size(), committed)) {
                return;
            }
            // marked first: whatever happens below, the next attempt waits for new growth or a new burst
            policy.returned(committed);
            long start = System.nanoTime();
            int asked = ratios.map(
                            r -> r.whileNarrowed(ReconcileSettings.HEAP_RETURN_MAX_FREE, this::collectUntilSteady))
                    .orElseGet(this::collectUntilSteady);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            MemoryUsage after = memory.getHeapMemoryUsage();
            policy.returned(after.getCommitted());
            returns.increment(asked);
            LOG.info(
                    "Reconcile pool quiet: {} full collections to return the heap to the OS, committed {} MiB -> {}"
                            + " MiB ({} MiB in use) in {} ms",
                    asked,
                    mib(committed),
                    mib(after.getCommitted()),
                    mib(after.getUsed()),
                    millis);
        } catch (RuntimeException e) {
            LOG.warn("Returning the heap failed", e);
        }
    }

    /** Full collections until the committed heap stops shrinking, at most {@link #MAX_COLLECTIONS}; how many. */
    private int collectUntilSteady() {
        int asked = 0;
        long before = memory.getHeapMemoryUsage().getCommitted();
        do {
            asked++;
            System.gc();
            long now = memory.getHeapMemoryUsage().getCommitted();
            if (asked > 1 && now >= before) {
                break;
            }
            before = now;
        } while (asked < MAX_COLLECTIONS);
        return asked;
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / MIB);
    }
}
