package io.kyma.operator.kyma;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.Conditions;
import io.kyma.operator.common.LeanCache;
import io.kyma.operator.common.StatusPatch;

/**
 * Fans a Kyma out into one HelmComponent per module, deletes the components of removed modules, and summarises
 * their progress in the Kyma's status. Components are read from an informer, never listed per reconcile.
 */
@ControllerConfiguration(name = KymaReconciler.NAME)
public class KymaReconciler implements Reconciler<Kyma>, Cleaner<Kyma> {
    public static final String NAME = "kyma";
    private static final Logger LOG = LoggerFactory.getLogger(KymaReconciler.class);
    /** A safety net while children are being deleted; their delete events normally come first. */
    private static final Duration DELETION_RECHECK = Duration.ofSeconds(10);

    private final Clock clock;
    private final KymaStatusSummary summary;
    private final StatusWritePolicy writePolicy;
    private final Map<String, Instant> lastStatusWrite = new ConcurrentHashMap<>();
    private InformerEventSource<HelmComponent, Kyma> components;

    public KymaReconciler(Clock clock, Duration statusInterval) {
        this.clock = clock;
        this.summary = new KymaStatusSummary(new Conditions(clock));
        this.writePolicy = new StatusWritePolicy(statusInterval);
    }

    @Override
    public List<EventSource<?, Kyma>> prepareEventSources(EventSourceContext<Kyma> context) {
        components = new InformerEventSource<>(InformerEventSourceConfiguration
                .from(HelmComponent.class, Kyma.class)
                .withLabelSelector(Labels.MANAGED_BY + "=" + Labels.MANAGED_BY_VALUE)
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Kyma.class))
                .withItemStore(LeanCache.store(ComponentView::of))
                // pages like the controller's own informer: one response of every component outlasts request timeouts
                .withInformerListLimit(context.getControllerConfiguration().getInformerConfig().getInformerListLimit())
                .build(), context);
        return List.of(components);
    }

    @Override
    public UpdateControl<Kyma> reconcile(Kyma kyma, Context<Kyma> context) {
        ModulePlan plan = ModulePlan.of(kyma);
        Map<String, HelmComponent> existing = new HashMap<>();
        for (HelmComponent component : context.getSecondaryResources(HelmComponent.class)) {
            existing.put(component.getSpec().getModule(), component);
        }
        for (Module module : plan.modules().values()) {
            HelmComponent current = existing.get(module.getName());
            if (current == null) {
                create(kyma, ChildComponents.desired(kyma, module), context);
            } else if (!Objects.equals(current.getSpec().getVersion(), module.getVersion())) {
                context.getClient().resource(current).edit(c -> {
                    c.getSpec().setVersion(module.getVersion());
                    return c;
                });
            }
        }
        existing.keySet().stream().filter(module -> !plan.modules().containsKey(module)).forEach(module -> {
            LOG.info("Kyma {}/{}: module {} left the spec, deleting its component", kyma.getMetadata().getNamespace(),
                    kyma.getMetadata().getName(), module);
            context.getClient().resource(existing.get(module)).delete();
        });
        return writeStatus(kyma, summary.summarise(kyma, plan, existing.values()), context);
    }

    @Override
    public DeleteControl cleanup(Kyma kyma, Context<Kyma> context) {
        Set<HelmComponent> remaining = context.getSecondaryResources(HelmComponent.class);
        if (remaining.isEmpty()) {
            lastStatusWrite.remove(kyma.getMetadata().getUid());
            LOG.info("Kyma {}/{}: all components deleted", kyma.getMetadata().getNamespace(),
                    kyma.getMetadata().getName());
            return DeleteControl.defaultDelete();
        }
        remaining.stream().filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .forEach(c -> context.getClient().resource(c).delete());
        if (kyma.getStatus() == null || kyma.getStatus().getPhase() != KymaPhase.DELETING) {
            patchStatus(kyma, summary.deleting(kyma, remaining.size()), context);
        }
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(DELETION_RECHECK);
    }

    private void create(Kyma kyma, HelmComponent desired, Context<Kyma> context) {
        try {
            HelmComponent created = context.getClient().resource(desired).create();
            components.handleRecentResourceCreate(ResourceID.fromResource(created), created);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            // Someone else's object under our name, or our own the cache has not seen yet: the next event tells.
            LOG.warn("Kyma {}/{}: HelmComponent {} already exists", kyma.getMetadata().getNamespace(),
                    kyma.getMetadata().getName(), desired.getMetadata().getName());
        }
    }

    private UpdateControl<Kyma> writeStatus(Kyma kyma, KymaStatus desired, Context<Kyma> context) {
        Instant now = clock.instant();
        var decision = writePolicy.decide(kyma.getStatus(), desired, lastStatusWrite.get(kyma.getMetadata().getUid()),
                now);
        if (decision.writeNow()) {
            KymaPhase before = kyma.getStatus() == null ? null : kyma.getStatus().getPhase();
            patchStatus(kyma, desired, context);
            if (before != desired.getPhase()) {
                LOG.info("Kyma {}/{}: phase {} -> {} ({})", kyma.getMetadata().getNamespace(),
                        kyma.getMetadata().getName(), before == null ? "none" : before, desired.getPhase(),
                        desired.getReadyComponents());
            }
        }
        return decision.retryAfter().map(delay -> UpdateControl.<Kyma>noUpdate().rescheduleAfter(delay))
                .orElseGet(UpdateControl::noUpdate);
    }

    private void patchStatus(Kyma kyma, KymaStatus status, Context<Kyma> context) {
        StatusPatch.apply(kyma, Kyma::new, status, context);
        lastStatusWrite.put(kyma.getMetadata().getUid(), clock.instant());
    }
}
