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
    private final BiConsumer<String, HasMetadata> beforeSubmit;

    /**
     * @param beforeSubmit told the controller and the resource of each reconcile just before JOSDK hands it to the
     *        executor, on the thread that hands it
     */
    public QueueMetrics(OperatorMetrics metrics, Clock clock, BiConsumer<String, HasMetadata> beforeSubmit) {
        this.metrics = metrics;
        this.clock = clock;
        this.beforeSubmit = beforeSubmit;
    }

    @Override
    public void reconcileCustomResource(HasMetadata resource, io.javaoperatorsdk.operator.api.reconciler.RetryInfo retry,
            Map<String, Object> metadata) {
        beforeSubmit.accept(controller(metadata), resource);
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        String controller = controller(metadata);
        if (queue(controller).putIfAbsent(event.getRelatedCustomResourceID(), clock.instant()) == null) {
            metrics.queueDepth(controller).incrementAndGet();
            metrics.queueAdds(controller).increment();
        }
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
        String controller = controller(metadata);
        Instant since = queue(controller).remove(ResourceID.fromResource(resource));
        if (since != null) {
            metrics.queueDepth(controller).decrementAndGet();
            metrics.queueDuration(controller).record(Duration.between(since, clock.instant()));
        }
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        String controller = controller(metadata);
        if (queue(controller).remove(resourceID) != null) {
            metrics.queueDepth(controller).decrementAndGet();
        }
    }

    private Map<ResourceID, Instant> queue(String controller) {
        return queued.computeIfAbsent(controller, k -> new ConcurrentHashMap<>());
    }

    private static String controller(Map<String, Object> metadata) {
        return String.valueOf(metadata.get(Constants.CONTROLLER_NAME));
    }
}
