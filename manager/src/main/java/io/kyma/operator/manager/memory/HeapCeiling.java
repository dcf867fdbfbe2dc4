package io.kyma.operator.manager.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.Counter;

/**
 * Collects the serial collector's old generation when its garbage outgrows {@link HeapCeilingPolicy}'s share of the
 * live data, checked every second, so that the heap follows the live data instead of growing to its cap during a
 * burst. Other collectors size their heaps themselves: off with them.
 */
final class HeapCeiling {
    private static final Logger LOG = LoggerFactory.getLogger(HeapCeiling.class);
    /** The serial collector's old generation, as its memory pool is named. */
    static final String SERIAL_OLD_POOL = "Tenured Gen";
    /** The garbage the old generation may hold however little is live: a full collection of less is not worth it. */
    static final long MIN_HEADROOM = 16L << 20;

    private final HeapCeilingPolicy policy;
    private final MemoryPoolMXBean old;
    private final Counter collections;

    HeapCeiling(HeapCeilingPolicy policy, MemoryPoolMXBean old, Counter collections) {
        this.policy = policy;
        this.old = old;
        this.collections = collections;
    }

    /** The serial collector's old generation; empty, and said so, with another collector. */
    static Optional<MemoryPoolMXBean> serialOldGeneration() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && SERIAL_OLD_POOL.equals(pool.getName())) {
                return Optional.of(pool);
            }
        }
        LOG.info("Heap ceiling off: it applies to the serial collector's old generation, and this JVM has none");
        return Optional.empty();
    }

    void check() {
        try {
            MemoryUsage after = old.getCollectionUsage();
            long live = after == null ? 0 : after.getUsed();
            MemoryUsage now = old.getUsage();
            long used = now.getUsed();
            if (!policy.observe(used, live, now.getMax())) {
                return;
            }
            long start = System.nanoTime();
            System.gc();
            Duration pause = Duration.ofNanos(System.nanoTime() - start);
            policy.collected(pause);
            collections.increment();
            LOG.debug(
                    "Old generation at its ceiling: {} MiB used with {} MiB live after the last full collection;"
                            + " collected to {} MiB in {} ms",
                    HeapReturner.mib(used),
                    HeapReturner.mib(live),
                    HeapReturner.mib(old.getUsage().getUsed()),
                    pause.toMillis());
        } catch (RuntimeException e) {
            LOG.warn("Collecting the old generation at its ceiling failed", e);
        }
    }
}
