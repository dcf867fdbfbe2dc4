package io.kyma.operator.manager.guard;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceDeleteEvent;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.core.instrument.Counter;

/**
 * Frees a resource that JOSDK 5.2.3 would never reconcile again. When a reconcile handed to the pool finds its
 * primary gone from the cache by the time a worker takes it, JOSDK returns without ending the execution: the
 * resource stays marked as under processing, and every later event, retry and resync of it is skipped (fixed in
 * JOSDK 5.5.1). A deletion seen by the informer clears the mark, so this wedges only an object that leaves the cache
 * some other way and comes back; this operator knows no such way today, and this class keeps it so if one appears.
 *
 * <p>The sign is the one the metrics see: an execution finished that never started. Then an event of deletion drops
 * JOSDK's state of the resource (the mark with it, as a real deletion would), and, if the resource is in the cache
 * again, an event of update reconciles it afresh. For controllers that are not triggered on all events (none here).
 * <p>It also delivers the reconciles JOSDK lost the timers of ({@link #deliver}, {@link LateReconciles}).
 */
public final class MissedExecutions {
    private static final Logger LOG = LoggerFactory.getLogger(MissedExecutions.class);

    private final Map<String, Controller<? extends HasMetadata>> controllers = new ConcurrentHashMap<>();
    private final Function<String, Counter> released;

    /** @param released the counter of resources freed, by controller */
    public MissedExecutions(Function<String, Counter> released) {
        this.released = released;
    }

    public void register(Controller<? extends HasMetadata> controller) {
        controllers.put(controller.getConfiguration().getName(), controller);
    }

    /** The execution of {@code resource} by {@code controller} ended without starting: frees the resource. */
    public void release(String controller, HasMetadata resource) {
        Controller<? extends HasMetadata> registered = controllers.get(controller);
        if (registered == null || resource == null) {
            return;
        }
        ResourceID id = ResourceID.fromResource(resource);
        try {
            var processor = registered.getEventProcessor();
            var cache = registered.getEventSourceManager().getControllerEventSource();
            // The processor's own lock (its methods hold it): no event of the resource is handled in between.
            synchronized (processor) {
                // Asking makes JOSDK keep a state for the resource if it had none (a deletion seen meanwhile dropped
                // it, and nothing is stuck): one that is gone from the cache is dropped again, as the deletion did.
                boolean stuck = processor.isUnderProcessing(id);
                var latest = cache.get(id);
                if (stuck || latest.isEmpty()) {
                    processor.handleEvent(new ResourceDeleteEvent(ResourceAction.DELETED, id, resource, false));
                }
                if (!stuck) {
                    return;
                }
                // Still marked: nothing else can run or be queued for it (JOSDK submits a resource only unmarked).
                latest.ifPresent(r -> processor.handleEvent(new ResourceEvent(ResourceAction.UPDATED, id, r)));
                released.apply(controller).increment();
                LOG.info(
                        "{} {}: its reconcile found it missing from the cache; {}",
                        controller,
                        id,
                        latest.isPresent() ? "it is back and reconciled afresh" : "forgotten until it is seen again");
            }
        } catch (RuntimeException e) {
            // called inside JOSDK's executor; an exception here would skip the rest of its clean-up
            LOG.warn("{} {}: could not free it after its reconcile found it missing from the cache", controller, id, e);
        }
    }

    /**
     * A reconcile owed did not begin in time ({@link LateReconciles}): delivered as a change of its object (for a
     * released one, of the object now under its name, if another), if that object is cached and not being reconciled.
     *
     * @return false if the object was being reconciled: the delivery is to be tried again later
     */
    public boolean deliver(LateReconciles.Due due) {
        Controller<? extends HasMetadata> registered = controllers.get(due.controller());
        if (registered == null) {
            return true;
        }
        try {
            var processor = registered.getEventProcessor();
            var cache = registered.getEventSourceManager().getControllerEventSource();
            synchronized (processor) {
                var latest = cache.get(due.id())
                        .filter(r ->
                                due.replaced() != Objects.equals(r.getMetadata().getUid(), due.uid()));
                if (latest.isEmpty()) {
                    return true;
                }
                if (processor.isUnderProcessing(due.id())) {
                    return false;
                }
                // A state JOSDK marked as cleaned up skips even a change of an object being deleted (its clean-up
                // would never run): it is dropped first, as a deletion would drop it, and the change makes a new one.
                processor.handleEvent(new ResourceDeleteEvent(ResourceAction.DELETED, due.id(), latest.get(), false));
                processor.handleEvent(new ResourceEvent(ResourceAction.UPDATED, due.id(), latest.get()));
            }
            if (!due.replaced()) {
                released.apply(due.controller()).increment();
                LOG.info(
                        "{} {}: the reconcile it asked for had not begun in time; delivered as a change of it",
                        due.controller(),
                        due.id());
            }
        } catch (RuntimeException e) {
            LOG.warn("{} {}: could not deliver the reconcile it asked for", due.controller(), due.id(), e);
        }
        return true;
    }
}
