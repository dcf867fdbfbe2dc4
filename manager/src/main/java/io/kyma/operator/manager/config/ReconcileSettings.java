package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;

/**
 * What the manager's runtime needs to run any controller: which namespace it watches, its shared reconcile pool and
 * gates, and how its informers list and cache.
 *
 * @param namespace the one namespace watched; empty watches all
 * @param maxReconcileRate reconciles per second across all controllers; 0 turns the global gate off
 * @param informerListLimit objects per page of an informer's list; 0 lists all at once
 * @param heapReturnAfter how long the reconcile pool must be quiet before the heap a burst grew is returned; zero
 *     never returns it
 * @param heapHeadroom the garbage the serial collector's old generation may hold before the manager collects it, as a
 *     share of its live data; zero leaves it to the collector
 */
public record ReconcileSettings(
        Optional<String> namespace,
        int maxConcurrentReconciles,
        Duration lowPriorityMaxWait,
        double maxReconcileRate,
        Duration syncPeriod,
        int informerListLimit,
        int temporaryCacheMax,
        Duration reconcileTimeout,
        Duration heapReturnAfter,
        double heapHeadroom) {
    static final Flag<Optional<String>> NAMESPACE = Flag.of(
            "namespace", "", "Namespace to watch; empty watches all namespaces.", ValueParsers.optionalNamespace());
    static final Flag<Integer> MAX_CONCURRENT_RECONCILES = Flag.of(
            "max-concurrent-reconciles",
            "50",
            "Size of the reconcile thread pool shared by all controllers (1 to 1024).",
            Parsers.integer(1, 1024));
    static final Flag<Duration> LOW_PRIORITY_MAX_WAIT = Flag.of(
            "low-priority-max-wait",
            "30s",
            "Reconciles with nothing due (a finished component or Run, a Ready Kyma, a Kyma waiting in line) wait"
                    + " behind due ones; once the oldest has waited this long, the two lanes take turns.",
            GoDuration::parsePositive);
    static final Flag<Double> MAX_RECONCILE_RATE = Flag.of(
            "max-reconcile-rate",
            "0",
            "Reconciles per second across all controllers; `0` turns the global gate off (negative values are"
                    + " refused).",
            Parsers.numberAtLeast(0));
    static final Flag<Duration> SYNC_PERIOD = Flag.of(
            "sync-period",
            "10h",
            "Every resource is reconciled at least this often, without any event.",
            GoDuration::parsePositive);
    static final Flag<Integer> INFORMER_LIST_LIMIT = Flag.of(
            "informer-list-limit",
            "500",
            "Objects per page when an informer lists its resources (at start and after a lost watch); `0` lists all"
                    + " in one response (at most 100000).",
            Parsers.integer(0, 100_000));
    static final Flag<Integer> TEMPORARY_CACHE_MAX = Flag.of(
            "temporary-cache-max",
            "5000",
            "Most write answers each controller keeps until its watch delivers them (read after write); beyond it a"
                    + " write that races its own watch event is retried on a 409 (at most 1000000).",
            Parsers.integer(0, 1_000_000));
    static final Flag<Duration> RECONCILE_TIMEOUT = Flag.of(
            "reconcile-timeout",
            "1m",
            "A reconcile running longer is interrupted, counted as failed and retried with backoff.",
            GoDuration::parsePositive);
    /** The largest free share of the old generation the heap return leaves, in percent (not a flag). */
    public static final int HEAP_RETURN_MAX_FREE = 10;

    static final Flag<Duration> HEAP_RETURN_AFTER = Flag.of(
            "heap-return-after",
            "30s",
            "Once the reconcile pool has been quiet this long (nothing waiting for a worker, at most one reconcile"
                    + " started a second) and the heap has grown by an eighth of its cap (at least 8 MiB) since the"
                    + " last time or 1000 reconciles have run since, full collections (up to four, until the heap"
                    + " stops shrinking) hand the heap back to the OS, with the JVM's MaxHeapFreeRatio lowered to "
                    + HEAP_RETURN_MAX_FREE
                    + " %"
                    + " for them and put back after: the serial collector, the Deployment's, has no periodic"
                    + " collection of its own; `0` never does.",
            ValueParsers::durationOrOff);
    static final Flag<Integer> HEAP_HEADROOM = Flag.of(
            "heap-headroom",
            "50",
            "With the serial collector (the Deployment's), the manager collects the old generation once the garbage in"
                    + " it exceeds this percentage of the live data its last full collection found (at least 16 MiB),"
                    + " in at most 2 % of the time, so the heap follows the live data instead of growing to its cap"
                    + " during a burst; a ceiling above three quarters of the old generation's cap, and `0`, leave it"
                    + " to the collector (0 to 1000).",
            Parsers.integer(0, 1000));
    static final List<Flag<?>> FLAGS = List.of(
            NAMESPACE,
            MAX_CONCURRENT_RECONCILES,
            LOW_PRIORITY_MAX_WAIT,
            MAX_RECONCILE_RATE,
            SYNC_PERIOD,
            INFORMER_LIST_LIMIT,
            TEMPORARY_CACHE_MAX,
            RECONCILE_TIMEOUT,
            HEAP_RETURN_AFTER,
            HEAP_HEADROOM);

    static ReconcileSettings from(Flags.Values values) {
        return new ReconcileSettings(
                values.get(NAMESPACE),
                values.get(MAX_CONCURRENT_RECONCILES),
                values.get(LOW_PRIORITY_MAX_WAIT),
                values.get(MAX_RECONCILE_RATE),
                values.get(SYNC_PERIOD),
                values.get(INFORMER_LIST_LIMIT),
                values.get(TEMPORARY_CACHE_MAX),
                values.get(RECONCILE_TIMEOUT),
                values.get(HEAP_RETURN_AFTER),
                values.get(HEAP_HEADROOM) / 100.0);
    }
}
