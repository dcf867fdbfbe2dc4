package io.kyma.operator.manager.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Every metric of the manager, under controller-runtime's names so that dashboards and alerts written for Go
 * operators work unchanged, plus the operator's own under {@code kyma_operator_}.
 */
public final class OperatorMetrics {
    /** controller-runtime's buckets for reconcile time, in seconds. */
    private static final double[] RECONCILE_BUCKETS = {
        0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5,
        1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60
    };
    /** client-go's and workqueue's exponential buckets, in seconds. */
    private static final double[] LATENCY_BUCKETS = {
        0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192, 16.384,
        32.768, 60, 120, 300, 1000
    };

    /**
     * Queue wait and transition lateness: narrow enough that a percentile read off them, reported as the range of
     * its bucket, says something (up to 20 minutes, the longest waits of the N = 4000 bench).
     */
    private static final double[] WAIT_BUCKETS = {
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 7.5, 10, 15, 20, 30, 45, 60,
        90, 120, 180, 240, 300, 450, 600, 900, 1200
    };

    /** Time to Ready of a Kyma: from seconds to the hour a burst of thousands takes. */
    private static final double[] READY_BUCKETS = {
        5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 450, 600, 900, 1200, 1800, 2700, 3600
    };

    private final PrometheusMeterRegistry registry =
            ProcessAndJvm.registeredOn(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();
    /** Timers and counters by name and tags. */
    private final Map<String, Meter> meters = new ConcurrentHashMap<>();

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text exposition of every metric. */
    public String scrape() {
        beforeScrape.forEach(Runnable::run);
        return registry.scrape();
    }

    public Timer reconcileTime(String controller) {
        return timer("controller_runtime_reconcile_time", RECONCILE_BUCKETS, "controller", controller);
    }

    public Counter reconciles(String controller, String result) {
        return counter("controller_runtime_reconcile", "controller", controller, "result", result);
    }

    public Counter reconcileErrors(String controller) {
        return counter("controller_runtime_reconcile_errors", "controller", controller);
    }

    /** Errors only a spec edit can fix (400, 413, 422), not retried: controller-runtime's terminal errors. */
    public Counter terminalReconcileErrors(String controller) {
        return counter("controller_runtime_terminal_reconcile_errors", "controller", controller);
    }

    /** Writes refused with 409 because the reconcile read a stale copy; retried, not counted as errors. */
    public Counter reconcileConflicts(String controller) {
        return counter("kyma_operator_reconcile_conflicts", "controller", controller);
    }

    /** The operator's own status writes the API server refused as malformed: a defect, retried with backoff. */
    public Counter statusWriteRefusals(String controller) {
        return counter("kyma_operator_status_write_refusals", "controller", controller);
    }

    public AtomicInteger activeWorkers(String controller) {
        return gauge("controller_runtime_active_workers", "controller", controller);
    }

    public void maxConcurrentReconciles(String controller, int value) {
        gauge("controller_runtime_max_concurrent_reconciles", "controller", controller)
                .set(value);
    }

    public AtomicInteger queueDepth(String name) {
        return gauge("workqueue_depth", "name", name);
    }

    public Counter queueAdds(String name) {
        return counter("workqueue_adds", "name", name);
    }

    public Counter queueRetries(String name) {
        return counter("workqueue_retries", "name", name);
    }

    /** How long a reconcile took, from its start to its end, as workqueue's processing time. */
    public Timer workDuration(String name) {
        return timer("workqueue_work_duration_seconds", LATENCY_BUCKETS, "name", name);
    }

    public Timer queueDuration(String name) {
        return timer("workqueue_queue_duration", WAIT_BUCKETS, "name", name);
    }

    /** How long after its due time each HelmComponent transition was written. */
    public Timer transitionLateness() {
        return timer("kyma_operator_transition_lateness", WAIT_BUCKETS);
    }

    /** Lists of a resource, first pages only: the informers' initial lists and relists. */
    public Counter informerLists(String resource) {
        return counter("kyma_operator_informer_lists", "resource", resource);
    }

    /** Watches of a resource started: one per informer, then one each time a watch ended. */
    public Counter watchStarts(String resource) {
        return counter("kyma_operator_watch_starts", "resource", resource);
    }

    /** Watches ended before the client ended them: by the API server (behind, too old), or a lost connection. */
    public Counter watchesEndedEarly(String resource) {
        return counter("kyma_operator_watches_ended_early", "resource", resource);
    }

    public Counter restRequests(String code, String method, String host) {
        return counter("rest_client_requests", "code", code, "method", method, "host", host);
    }

    public Timer restRequestDuration(String verb, String host) {
        return timer("rest_client_request_duration", LATENCY_BUCKETS, "verb", verb, "host", host);
    }

    public Timer restRateLimiterDuration() {
        return timer("rest_client_rate_limiter_duration", LATENCY_BUCKETS);
    }

    public Timer requeueLimiterWait() {
        return timer("kyma_operator_requeue_limiter_wait", LATENCY_BUCKETS);
    }

    public Timer globalGateWait() {
        return timer("kyma_operator_global_gate_wait", LATENCY_BUCKETS);
    }

    /** Shard labels written on objects that had none, by resource. */
    public Counter shardAssignments(String resource) {
        return counter("kyma_operator_shard_assignments", "resource", resource);
    }

    /** Objects moved off a shard that was down or gone, or handed to their own shard after a drain, by resource. */
    public Counter shardMoves(String resource) {
        return counter("kyma_operator_shard_moves", "resource", resource);
    }

    /** Objects asked to leave a live shard for their own ({@code kyma_operator_shard_drains_total}), by resource. */
    public Counter shardDrains(String resource) {
        return counter("kyma_operator_shard_drains", "resource", resource);
    }

    /** Resources JOSDK 5.2.3 would not have reconciled again, freed ({@code MissedExecutions}), by controller. */
    public Counter missedExecutions(String controller) {
        return counter("kyma_operator_missed_executions", "controller", controller);
    }

    public Counter heapCollections(String reason) {
        return counter("kyma_operator_heap_collections", "reason", reason);
    }

    /** Runs {@code update} before every scrape, for gauges whose set of series changes (the slowest Kymas). */
    public void beforeScrape(Runnable update) {
        beforeScrape.add(update);
    }

    /** From a Kyma's creation to its Ready condition turning true. */
    public Timer kymaTimeToReady() {
        return timer("kyma_operator_kyma_ready", READY_BUCKETS);
    }

    /** A gauge whose value is read at scrape time, for example the Kymas in one phase. */
    public <T> void gauge(String name, T source, ToDoubleFunction<T> value, String... tags) {
        Gauge.builder(name, source, value).tags(tags).register(registry);
    }

    /** A gauge of a value that does not change while the process runs. */
    public void constant(String name, String description, double value, String... tags) {
        Gauge.builder(name, () -> value).description(description).tags(tags).register(registry);
    }

    /** A counter whose count {@code source} keeps, read at each scrape. */
    public <T> void counter(String name, String description, T source, ToDoubleFunction<T> count, String... tags) {
        FunctionCounter.builder(name, source, count)
                .description(description)
                .tags(tags)
                .register(registry);
    }

    /**
     * The timer of this name and tags, built and registered once: reconciles, queue waits and requests ask for theirs
     * on every call, and building one (its buckets, its registry lookup) showed in profiles under load.
     */
    private Timer timer(String name, double[] bucketsSeconds, String... tags) {
        return (Timer) meters.computeIfAbsent(key(name, tags), k -> {
            Duration[] buckets = new Duration[bucketsSeconds.length];
            for (int i = 0; i < bucketsSeconds.length; i++) {
                buckets[i] = Duration.ofNanos((long) (bucketsSeconds[i] * 1e9));
            }
            return Timer.builder(name)
                    .tags(tags)
                    .serviceLevelObjectives(buckets)
                    .register(registry);
        });
    }

    /** The counter of this name and tags, looked up in the registry once. */
    private Counter counter(String name, String... tags) {
        return (Counter) meters.computeIfAbsent(key(name, tags), k -> registry.counter(name, tags));
    }

    private static String key(String name, String... tags) {
        return tags.length == 0 ? name : name + '\u0000' + String.join("\u0000", tags);
    }

    private AtomicInteger gauge(String name, String tagKey, String tagValue) {
        return gauges.computeIfAbsent(name + "|" + tagValue, k -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(name, value, AtomicInteger::get).tag(tagKey, tagValue).register(registry);
            return value;
        });
    }
}
