package io.kyma.operator.manager.guard;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.manager.shard.ShardDrain;

/**
 * A controller's reconciler run through its {@link ReconcileGuard}, unless the object is being handed to another
 * shard ({@link ShardDrain}): then this replica only says it stopped. Register it with the configuration JOSDK derives
 * from the wrapped reconciler; {@link #wrap} keeps the {@link Cleaner} side only where the wrapped one has it,
 * because JOSDK decides on a finalizer by that.
 */
public class GuardedReconciler<P extends HasMetadata> implements Reconciler<P> {
    /** How soon a replica that could not answer a drain tries again. */
    static final Duration DRAIN_RETRY = Duration.ofSeconds(2);

    protected final Reconciler<P> delegate;
    protected final ReconcileGuard guard;
    protected final ShardDrain.Responder drain;

    GuardedReconciler(Reconciler<P> delegate, ReconcileGuard guard, ShardDrain.Responder drain) {
        this.delegate = delegate;
        this.guard = guard;
        this.drain = drain;
    }

    public static <P extends HasMetadata> Reconciler<P> wrap(Reconciler<P> delegate, ReconcileGuard guard) {
        return wrap(delegate, guard, ShardDrain.Responder.NONE);
    }

    public static <P extends HasMetadata> Reconciler<P> wrap(
            Reconciler<P> delegate, ReconcileGuard guard, ShardDrain.Responder drain) {
        return delegate instanceof Cleaner<?>
                ? new WithCleanup<>(delegate, guard, drain)
                : new GuardedReconciler<>(delegate, guard, drain);
    }

    @Override
    public UpdateControl<P> reconcile(P seen, Context<P> context) {
        P current = newest(seen, context); // the drain check and the reconcile read the same object
        switch (drain.answer(current, context::getClient)) {
            case STOPPED -> {
                return UpdateControl.noUpdate();
            }
            case RETRY -> {
                return UpdateControl.<P>noUpdate().rescheduleAfter(guard.again(current, Optional.of(DRAIN_RETRY)));
            }
            default -> {
                // not being handed over: reconcile
            }
        }
        var result = guard.run(current, () -> delegate.reconcile(current, context));
        if (result.outcome() != ReconcileGuard.Outcome.SUCCEEDED) {
            return UpdateControl.<P>noUpdate().rescheduleAfter(guard.again(current, Optional.of(result.delay())));
        }
        UpdateControl<P> control = result.value();
        guard.countSuccess(control.getScheduleDelay().isPresent());
        return control.rescheduleAfter(
                guard.again(current, control.getScheduleDelay().map(Duration::ofMillis)));
    }

    /**
     * The resource as this controller last wrote it, if JOSDK's view is older: JOSDK 5.2.3 can drop the answer of a
     * write from its temporary cache when a late watch event brings the version before it ({@link SharedStore#newest}),
     * and a reconcile of the older version would only have its write refused.
     */
    static <P extends HasMetadata> P newest(P resource, Context<P> context) {
        SharedStore<P> store = SharedStore.of(context);
        if (store == null) {
            return resource;
        }
        var cloner =
                context.getControllerConfiguration().getConfigurationService().getResourceCloner();
        return store.newest(resource, cloner::clone);
    }

    @Override
    public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
        return delegate.prepareEventSources(context);
    }

    static final class WithCleanup<P extends HasMetadata> extends GuardedReconciler<P> implements Cleaner<P> {
        WithCleanup(Reconciler<P> delegate, ReconcileGuard guard, ShardDrain.Responder drain) {
            super(delegate, guard, drain);
        }

        @Override
        @SuppressWarnings("unchecked")
        public DeleteControl cleanup(P resource, Context<P> context) {
            switch (drain.answer(resource, context::getClient)) {
                case STOPPED -> {
                    return DeleteControl.noFinalizerRemoval(); // the new shard's replica cleans up
                }
                case RETRY -> {
                    return DeleteControl.noFinalizerRemoval()
                            .rescheduleAfter(guard.again(resource, Optional.of(DRAIN_RETRY)));
                }
                default -> {
                    // not being handed over: clean up
                }
            }
            var result = guard.run(resource, () -> ((Cleaner<P>) delegate).cleanup(resource, context));
            if (result.outcome() != ReconcileGuard.Outcome.SUCCEEDED) {
                return DeleteControl.noFinalizerRemoval()
                        .rescheduleAfter(guard.again(resource, Optional.of(result.delay())));
            }
            guard.countSuccess(result.value().getScheduleDelay().isPresent());
            result.value().getScheduleDelay().ifPresent(d -> guard.again(resource, Optional.of(Duration.ofMillis(d))));
            if (result.value().isRemoveFinalizer()) {
                guard.released(resource);
            }
            return result.value();
        }
    }
}
