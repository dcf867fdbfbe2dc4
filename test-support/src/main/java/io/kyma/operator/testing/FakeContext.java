package io.kyma.operator.testing;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.dependent.managed.ManagedWorkflowAndDependentResourceContext;
import io.javaoperatorsdk.operator.processing.event.EventSourceRetriever;

/**
 * A reconcile's context for unit tests of a reconciler's decisions: the primary resource and the secondary resources
 * its caches would hold. It has no client: the reconciler under test writes through a fake of its own.
 */
public final class FakeContext<P extends HasMetadata> implements Context<P> {
    private final P primary;
    private final Set<Object> secondary = new LinkedHashSet<>();

    public FakeContext(P primary, List<?> secondary) {
        this.primary = primary;
        this.secondary.addAll(secondary);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> Set<R> getSecondaryResources(Class<R> expectedType) {
        Set<R> found = new LinkedHashSet<>();
        secondary.stream().filter(expectedType::isInstance).forEach(r -> found.add((R) r));
        return found;
    }

    @Override
    public <R> Optional<R> getSecondaryResource(Class<R> expectedType, String eventSourceName) {
        return getSecondaryResources(expectedType).stream().findFirst();
    }

    @Override
    public P getPrimaryResource() {
        return primary;
    }

    @Override
    public Optional<RetryInfo> getRetryInfo() {
        return Optional.empty();
    }

    @Override
    public boolean isNextReconciliationImminent() {
        return false;
    }

    @Override
    public boolean isPrimaryResourceDeleted() {
        return false;
    }

    @Override
    public boolean isPrimaryResourceFinalStateUnknown() {
        return false;
    }

    @Override
    public ControllerConfiguration<P> getControllerConfiguration() {
        return null; // no controller here: what reads it (a shared store, a field manager) finds none
    }

    @Override
    public ManagedWorkflowAndDependentResourceContext managedWorkflowAndDependentResourceContext() {
        throw new UnsupportedOperationException("not in a fake context");
    }

    @Override
    public EventSourceRetriever<P> eventSourceRetriever() {
        throw new UnsupportedOperationException("not in a fake context");
    }

    @Override
    public KubernetesClient getClient() {
        throw new UnsupportedOperationException("a fake context has no client; write through the reconciler's fake");
    }

    @Override
    public ExecutorService getWorkflowExecutorService() {
        throw new UnsupportedOperationException("not in a fake context");
    }

    @Override
    public IndexedResourceCache<P> getPrimaryCache() {
        throw new UnsupportedOperationException("not in a fake context");
    }
}
