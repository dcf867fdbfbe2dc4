package io.kyma.operator.manager;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.Controller;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;

/**
 * One controller as the runtime runs it: its reconciler, the store its informer keeps the primary resources in (which
 * another controller may read), which of its reconciles can wait for due work, and what it measures once registered.
 * The runtime knows nothing else about the kind: the product says which controllers run ({@link
 * StandardControllers}).
 *
 * @param store where the informer keeps the primary resources; one store may be shared with other controllers
 * @param priority which reconciles can wait behind due ones
 * @param wiring called once the controller is registered, for its gauges and the hooks it needs
 * @param fresh an empty resource of the kind, into which JOSDK's copy of a primary before each reconcile takes only the
 *     metadata (the reconcilers never change spec or status in place); empty to copy whole objects
 * @param resources what the controller holds besides the runtime's (clients, threads), closed when the manager stops
 */
public record ControllerSpec<P extends HasMetadata>(
        Reconciler<P> reconciler,
        SharedStore<P> store,
        WorkPriority<P> priority,
        Wiring<P> wiring,
        Optional<Supplier<? extends CustomResource<?, ?>>> fresh,
        AutoCloseable resources) {

    /** What a controller adds once it is registered. */
    @FunctionalInterface
    public interface Wiring<P extends HasMetadata> {
        void wire(Registered<P> registered);
    }

    /** A registered controller, and the parts of the runtime its wiring may use. */
    public record Registered<P extends HasMetadata>(
            SharedStore<P> store,
            Controller<P> controller,
            OperatorMetrics metrics,
            QueueMetrics queue,
            Clock clock,
            Events events) {

        /** Whether the controller's informers have listed everything once. */
        public boolean synced() {
            var indicators = controller
                    .getEventSourceManager()
                    .getControllerEventSource()
                    .informerHealthIndicators();
            return !indicators.isEmpty() && indicators.values().stream().allMatch(i -> i.hasSynced());
        }
    }

    /** A controller whose informer keeps whole objects, whose reconciles are all due, that measures nothing more. */
    public static <P extends HasMetadata> ControllerSpec<P> plain(Reconciler<P> reconciler, int temporaryCacheMax) {
        return new ControllerSpec<>(
                reconciler,
                new SharedStore<>(null, new BasicItemStore<>(Cache::metaNamespaceKeyFunc), temporaryCacheMax),
                resource -> false,
                registered -> {},
                Optional.empty(),
                () -> {});
    }

    /** Plain controllers of the reconcilers (tests): whole objects in their informers, every reconcile due. */
    public static List<ControllerSpec<?>> plain(List<Reconciler<?>> reconcilers, int temporaryCacheMax) {
        List<ControllerSpec<?>> specs = new ArrayList<>();
        for (Reconciler<?> reconciler : reconcilers) {
            specs.add(plain(reconciler, temporaryCacheMax));
        }
        return specs;
    }
}
