package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.helmcomponent.HelmComponentForm;
import io.kyma.operator.kyma.KymaForm;
import io.kyma.operator.manager.queue.PriorityWorkQueue;
import io.kyma.operator.run.RunForm;
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
    /**
     * The writers take the queued labels a namespace at a time in turn, so that one namespace's thousands of objects
     * without a label (unlabelled by hand, again and again) delay another namespace's new Kyma by one label per
     * namespace waiting, not by all of them.
     */
    private final ExecutorService writer;
    /** When this replica first saw each object without a label: the others wait a resync from then, not creation. */
    private final Map<String, Instant> unlabelledSince = new ConcurrentHashMap<>();
    /** Objects with a label write queued, by resource and key: each is queued once however many events it has. */
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    /** @param assigned the counter of labels written, by resource */
    public ShardAssigner(KubernetesClient client, Shards shards, Function<String, Counter> assigned, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.shards = shards;
        this.assigned = assigned;
        this.writer = new ThreadPoolExecutor(
                WRITERS,
                WRITERS,
                0,
                TimeUnit.MILLISECONDS,
                new PriorityWorkQueue(clock, Duration.ZERO),
                DaemonThreads.named("shard-assigner"));
    }

    /** Starts watching the unassigned objects of {@code namespace} (every namespace if empty). */
    public void start(Optional<String> namespace) {
        // lean stores: anyone may give the objects they watch annotations, finalizers and owners by the megabyte
        informers.add(watch(Kyma.class, namespace, "kymas", LeanCache.store(new KymaForm())));
        informers.add(watch(Run.class, namespace, "runs", LeanCache.store(new RunForm())));
        informers.add(
                watch(HelmComponent.class, namespace, "helmcomponents", LeanCache.store(new HelmComponentForm())));
    }

    /** The shard of an object: its own name's for a Kyma or Run, its Kyma's for a HelmComponent. */
    public int shardOf(HasMetadata object) {
        return shards.of(object.getMetadata().getNamespace(), ownerName(object));
    }

    /** The name an object's shard follows: a HelmComponent's Kyma (by label, else spec), anything else its own. */
    static String ownerName(HasMetadata object) {
        if (object instanceof HelmComponent component) {
            Map<String, String> labels = object.getMetadata().getLabels();
            String kyma = labels != null && labels.get(Labels.KYMA) != null
                    ? labels.get(Labels.KYMA)
                    : component.getSpec() != null ? component.getSpec().getKyma() : null;
            if (kyma != null) {
                return kyma;
            }
        }
        return object.getMetadata().getName();
    }

    private <R extends HasMetadata> SharedIndexInformer<R> watch(
            Class<R> kind, Optional<String> namespace, String resource, ItemStore<R> store) {
        var resources = client.resources(kind);
        var selected = namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace();
        SharedIndexInformer<R> informer =
                selected.withLabelSelector(Shards.unassigned()).runnableInformer(RESYNC_MILLIS);
        informer.itemStore(store);
        informer.addEventHandler(new ResourceEventHandler<R>() {
            @Override
            public void onAdd(R object) {
                seen(resource, object);
                queue(object);
            }

            @Override
            public void onUpdate(R before, R after) {
                queue(after); // a change, or the resync of one still unlabelled
            }

            private void queue(R object) {
                String key = Cache.metaNamespaceKeyFunc(object);
                if (queued.add(resource + "/" + key)) {
                    writer.execute(new PriorityWorkQueue.Tagged(
                            () -> {
                                queued.remove(resource + "/" + key);
                                // as it is now: gone from the selection once labelled (by any replica) or deleted
                                R current = informer.getStore().getByKey(key);
                                if (current != null) {
                                    label(kind, current, resource);
                                }
                            },
                            object.getMetadata().getNamespace(),
                            false));
                }
            }

            @Override
            public void onDelete(R object, boolean finalStateUnknown) {
                // labelled (it left the selection) or deleted: nothing to do but forget it
                unlabelledSince.remove(resource + "/" + Cache.metaNamespaceKeyFunc(object));
            }
        });
        informer.run();
        return informer;
    }

    /** This replica sees {@code object} without a label (again). */
    void seen(String resource, HasMetadata object) {
        unlabelledSince.putIfAbsent(resource + "/" + Cache.metaNamespaceKeyFunc(object), clock.instant());
    }

    /**
     * Whether this replica labels the object now: its own shard's, or one that has waited a resync for its replica,
     * counted from when this replica first saw it without a label (a label taken off an old object by hand is not
     * written by every replica at once).
     */
    boolean labelsNow(HasMetadata object, Instant now) {
        return labelsNow(object, now, null);
    }

    boolean labelsNow(HasMetadata object, Instant now, String resource) {
        if (shardOf(object) == shards.id()) {
            return true;
        }
        Instant since =
                resource == null ? null : unlabelledSince.get(resource + "/" + Cache.metaNamespaceKeyFunc(object));
        if (since == null) {
            String created = object.getMetadata().getCreationTimestamp();
            since = created == null ? null : Instant.parse(created);
        }
        return since == null || !now.isBefore(since.plusMillis(RESYNC_MILLIS));
    }

    private <R extends HasMetadata> void label(Class<R> kind, R object, String resource) {
        if (!labelsNow(object, clock.instant(), resource)) {
            return; // its own shard's replica labels it; if that one is down, the next resync here does
        }
        String shard = Integer.toString(shardOf(object));
        try {
            // the object in hand, so that the client sends the patch without reading the object first
            client.resources(kind)
                    .resource(object)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"labels\":{\"" + Labels.SHARD + "\":\"" + shard + "\"}}}");
            assigned.apply(resource).increment();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) { // deleted meanwhile: nothing to label
                LOG.warn(
                        "{} {}/{}: could not label it for shard {} (tried again within 30 s): {}",
                        resource,
                        object.getMetadata().getNamespace(),
                        object.getMetadata().getName(),
                        shard,
                        e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
        writer.shutdownNow();
    }
}
