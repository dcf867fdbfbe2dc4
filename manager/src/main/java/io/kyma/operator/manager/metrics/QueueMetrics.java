package io.kyma.operator.manager.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * controller-runtime's workqueue metrics, computed from JOSDK's hooks. A resource is queued from the first event
 * (watch event or timer) that finds it idle until its reconcile starts; later events meanwhile are coalesced into it,
 * as JOSDK does. Depth is the number of resources queued.
 */
public final class QueueMetrics implements Metrics {
    private final OperatorMetrics metrics;
    private final Clock clock;
    private final Map<String, Map<ResourceID, Instant>> queued = new ConcurrentHashMap<>();
    private final Map<String, Map<ResourceID, Instant>> running = new ConcurrentHashMap<>();
    /** How many resources of each namespace are queued, by controller. */
    private final Map<String, Map<String, Integer>> queuedIn = new ConcurrentHashMap<>();

    private volatile BiConsumer<String, HasMetadata> missed = (controller, resource) -> {};
    /**
     * Whether the execution running on this worker started. JOSDK calls started and finished of one execution on its
     * worker; by resource alone a next execution of the same resource, handed to another worker before this one's
     * finished, could not be told apart.
     */
    private final ThreadLocal<Boolean> startedHere = new ThreadLocal<>();

    public QueueMetrics(OperatorMetrics metrics, Clock clock) {
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        String controller = controller(metadata);
        ResourceID id = event.getRelatedCustomResourceID();
        if (queue(controller).putIfAbsent(id, clock.instant()) == null) {
            countQueued(controller, id, 1);
            metrics.queueDepth(controller).incrementAndGet();
            metrics.queueAdds(controller).increment();
        }
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
        String controller = controller(metadata);
        ResourceID id = ResourceID.fromResource(resource);
        Instant now = clock.instant();
        Instant since = queue(controller).remove(id);
        if (since != null) {
            countQueued(controller, id, -1);
            metrics.queueDepth(controller).decrementAndGet();
            metrics.queueDuration(controller).record(Duration.between(since, now));
        }
        running(controller).put(id, now);
        startedHere.set(Boolean.TRUE);
    }

    /**
     * Told the controller and the resource of each execution that finished without having started: in JOSDK 5.2.3, a
     * reconcile that found its resource gone from the cache, which leaves the resource marked as under processing.
     */
    public void onMissedExecution(BiConsumer<String, HasMetadata> missed) {
        this.missed = missed;
    }

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
        String controller = controller(metadata);
        boolean started = startedHere.get() != null;
        startedHere.remove();
        Instant since = running(controller).remove(ResourceID.fromResource(resource));
        if (since != null) {
            metrics.workDuration(controller).record(Duration.between(since, clock.instant()));
        }
        if (!started) {
            missed.accept(controller, resource);
        }
    }

    /** Seconds of work in progress and not yet counted in the work duration, over every running reconcile. */
    public double unfinishedWorkSeconds(String controller) {
        Instant now = clock.instant();
        return running(controller).values().stream()
                .mapToDouble(since -> seconds(since, now))
                .sum();
    }

    /** Seconds the longest running reconcile of the controller has been running, 0 when none runs. */
    public double longestRunningSeconds(String controller) {
        Instant now = clock.instant();
        return running(controller).values().stream()
                .mapToDouble(since -> seconds(since, now))
                .max()
                .orElse(0);
    }

    /** Registers the two gauges of work in progress for a controller. */
    public void measureWorkInProgress(String controller) {
        metrics.gauge(
                "workqueue_unfinished_work_seconds",
                this,
                q -> q.unfinishedWorkSeconds(controller),
                "name",
                controller);
        metrics.gauge(
                "workqueue_longest_running_processor_seconds",
                this,
                q -> q.longestRunningSeconds(controller),
                "name",
                controller);
    }

    private static double seconds(Instant since, Instant now) {
        return Math.max(0, Duration.between(since, now).toNanos() / 1e9);
    }

    private Map<ResourceID, Instant> running(String controller) {
        return running.computeIfAbsent(controller, k -> new ConcurrentHashMap<>());
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        String controller = controller(metadata);
        if (queue(controller).remove(resourceID) != null) {
            countQueued(controller, resourceID, -1);
            metrics.queueDepth(controller).decrementAndGet();
        }
    }

    /** Resources of the namespace queued for the controller: events received, reconciles not started. */
    public int queued(String controller, String namespace) {
        Map<String, Integer> counts = queuedIn.get(controller);
        Integer count = counts == null ? null : counts.get(namespace);
        return count == null ? 0 : Math.max(0, count);
    }

    /** A namespace's count goes when it is back to zero, so namespaces that come and go leave nothing behind. */
    private void countQueued(String controller, ResourceID id, int change) {
        queuedIn.computeIfAbsent(controller, k -> new ConcurrentHashMap<>())
                .merge(
                        id.getNamespace().orElse(""),
                        change,
                        (count, delta) -> count + delta == 0 ? null : count + delta);
    }

    private Map<ResourceID, Instant> queue(String controller) {
        return queued.computeIfAbsent(controller, k -> new ConcurrentHashMap<>());
    }

    private static String controller(Map<String, Object> metadata) {
        return String.valueOf(metadata.get(Constants.CONTROLLER_NAME));
    }
}
