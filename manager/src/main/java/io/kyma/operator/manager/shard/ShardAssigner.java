package io.kyma.operator.manager.shard;

import io.kyma.operator.common.DaemonThreads;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.micrometer.core.instrument.Counter;

/**
 * Gives each Kyma, Run and HelmComponent without a shard label its shard, so that the replica of that shard sees it.
 * Every replica runs one, watching only the objects no shard has yet (they leave its cache once labelled). The
 * replica of the object's own shard labels it at once; the others only once it has waited longer than a resync
 * ({@link #RESYNC_MILLIS}), in case that replica is not running, so that one label is written per object, not one
 * per replica. All replicas compute the same shard, so two of them labelling one object write the same value.
 */
public final class ShardAssigner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardAssigner.class);
    /** A label that could not be written is tried again this often, for as long as the object has none. */
    private static final long RESYNC_MILLIS = 30_000;

    private final KubernetesClient client;
    private final Clock clock;
    private final Shards shards;
    private final Function<String, Counter> assigned;
    /**
     * A few label writes at once: in a burst of new objects, one writer waiting on each answer in turn would hold
     * them unlabelled, and so unreconciled, for as long as the API server takes to answer them all.
     */
    private static final int WRITERS = 4;
    private final ExecutorService writer = Executors.newFixedThreadPool(WRITERS, DaemonThreads.named("shard-assigner"));
    /** Objects with a label write queued, by resource and key: each is queued once however many events it has. */
    private final java.util.Set<String> queued = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    /** @param assigned the counter of labels written, by resource */
    public ShardAssigner(KubernetesClient client, Shards shards, Function<String, Counter> assigned, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.shards = shards;
        this.assigned = assigned;
    }

    /** Starts watching the unassigned objects of {@code namespace} (every namespace if empty). */
    public void start(Optional<String> namespace) {
        informers.add(watch(Kyma.class, namespace, "kymas"));
        informers.add(watch(Run.class, namespace, "runs"));
        informers.add(watch(HelmComponent.class, namespace, "helmcomponents"));
    }

    /** The shard of an object: its own name's for a Kyma or Run, its Kyma's for a HelmComponent. */
    public int shardOf(HasMetadata object) {
        return shards.of(object.getMetadata().getNamespace(), ownerName(object));
    }

    /** The name an object's shard follows: a HelmComponent's Kyma (by label, else spec), anything else its own. */
    static String ownerName(HasMetadata object) {
        if (object instanceof HelmComponent component) {
            Map<String, String> labels = object.getMetadata().getLabels();
            String kyma = labels != null && labels.get(Labels.KYMA) != null ? labels.get(Labels.KYMA)
                    : component.getSpec() != null ? component.getSpec().getKyma() : null;
            if (kyma != null) {
                return kyma;
            }
        }
        return object.getMetadata().getName();
    }

    private <R extends HasMetadata> SharedIndexInformer<R> watch(Class<R> kind, Optional<String> namespace,
            String resource) {
        var resources = client.resources(kind);
        var selected = namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace();
        java.util.concurrent.atomic.AtomicReference<SharedIndexInformer<R>> informer =
                new java.util.concurrent.atomic.AtomicReference<>();
        informer.set(selected.withLabelSelector(Shards.unassigned()).inform(new ResourceEventHandler<R>() {
            @Override
            public void onAdd(R object) {
                queue(object);
            }

            @Override
            public void onUpdate(R before, R after) {
                queue(after); // a change, or the resync of one still unlabelled
            }

            private void queue(R object) {
                String key = Cache.metaNamespaceKeyFunc(object);
                if (queued.add(resource + "/" + key)) {
                    writer.execute(() -> {
                        queued.remove(resource + "/" + key);
                        // as it is now: gone from the selection once labelled (by any replica) or deleted
                        R current = informer.get() == null ? object : informer.get().getStore().getByKey(key);
                        if (current != null) {
                            label(kind, current, resource);
                        }
                    });
                }
            }

            @Override
            public void onDelete(R object, boolean finalStateUnknown) {
                // labelled (it left the selection) or deleted: nothing to do
            }
        }, RESYNC_MILLIS));
        return informer.get();
    }

    /** Whether this replica labels the object now: its own shard's, or one that waited a resync for its replica. */
    boolean labelsNow(HasMetadata object, Instant now) {
        if (shardOf(object) == shards.id()) {
            return true;
        }
        String created = object.getMetadata().getCreationTimestamp();
        return created == null || !now.isBefore(Instant.parse(created).plusMillis(RESYNC_MILLIS));
    }

    private <R extends HasMetadata> void label(Class<R> kind, R object, String resource) {
        if (!labelsNow(object, clock.instant())) {
            return; // its own shard's replica labels it; if that one is down, the next resync here does
        }
        String shard = Integer.toString(shardOf(object));
        try {
            // the object in hand, so that the client sends the patch without reading the object first
            client.resources(kind).resource(object).patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"labels\":{\"" + Labels.SHARD + "\":\"" + shard + "\"}}}");
            assigned.apply(resource).increment();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) { // deleted meanwhile: nothing to label
                LOG.warn("{} {}/{}: could not label it for shard {} (tried again within 30 s): {}", resource,
                        object.getMetadata().getNamespace(), object.getMetadata().getName(), shard, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
        writer.shutdownNow();
    }
}
