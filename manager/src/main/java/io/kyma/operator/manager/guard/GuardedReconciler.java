package io.kyma.operator.manager.guard;

import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;

/**
 * A controller's reconciler run through its {@link ReconcileGuard}. Register it with the configuration JOSDK derives
 * from the wrapped reconciler; {@link #wrap} keeps the {@link Cleaner} side only where the wrapped one has it,
 * because JOSDK decides on a finalizer by that.
 */
public class GuardedReconciler<P extends HasMetadata> implements Reconciler<P> {
    protected final Reconciler<P> delegate;
    protected final ReconcileGuard guard;

    GuardedReconciler(Reconciler<P> delegate, ReconcileGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    public static <P extends HasMetadata> Reconciler<P> wrap(Reconciler<P> delegate, ReconcileGuard guard) {
        return delegate instanceof Cleaner<?> ? new WithCleanup<>(delegate, guard) : new GuardedReconciler<>(delegate, guard);
    }

    @Override
    public UpdateControl<P> reconcile(P resource, Context<P> context) {
        var result = guard.run(resource, () -> delegate.reconcile(resource, context));
        if (result.outcome() != ReconcileGuard.Outcome.SUCCEEDED) {
            return UpdateControl.<P>noUpdate().rescheduleAfter(result.delay());
        }
        UpdateControl<P> control = result.value();
        guard.countSuccess(control.getScheduleDelay().isPresent());
        return control.rescheduleAfter(guard.capToSyncPeriod(control.getScheduleDelay()));
    }

    @Override
    public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
        return delegate.prepareEventSources(context);
    }

    static final class WithCleanup<P extends HasMetadata> extends GuardedReconciler<P> implements Cleaner<P> {
        WithCleanup(Reconciler<P> delegate, ReconcileGuard guard) {
            super(delegate, guard);
        }

        @Override
        @SuppressWarnings("unchecked")
        public DeleteControl cleanup(P resource, Context<P> context) {
            var result = guard.run(resource, () -> ((Cleaner<P>) delegate).cleanup(resource, context));
            if (result.outcome() != ReconcileGuard.Outcome.SUCCEEDED) {
                return DeleteControl.noFinalizerRemoval().rescheduleAfter(result.delay());
            }
            guard.countSuccess(result.value().getScheduleDelay().isPresent());
            return result.value();
        }
    }
}
