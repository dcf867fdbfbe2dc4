package io.kyma.operator.manager.shard;

import io.kyma.operator.common.DaemonThreads;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.micrometer.core.instrument.Counter;

/**
 * Moves the objects of a shard that is down to the live shards. Each shard's leader renews the shard's Lease; once a
 * Lease has run out ({@link ShardLiveness}) no replica of that shard reconciles any more, and the leader of the
 * lowest live shard relabels the dead shard's Kymas and Runs to the live shard each hashes to
 * ({@link Shards#moveTo}), and each component to its Kyma's. Only the dead shard's objects move; a shard that comes
 * back gets new objects, not its old ones back, so no object ever has to be taken from a replica that runs.
 */
public final class ShardMover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardMover.class);

    private final KubernetesClient client;
    private final Shards shards;
    private final String leasePrefix;
    private final String leaseNamespace;
    private final Optional<String> namespace;
    private final Clock clock;
    private final BooleanSupplier leading;
    private final Function<String, Counter> moved;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("shard-mover"));

    /**
     * @param leasePrefix the leader-election id; shard i's Lease is {@code <prefix>-shard-<i>}
     * @param leading whether this replica leads its shard
     * @param moved the counter of objects moved, by resource
     */
    public ShardMover(KubernetesClient client, Shards shards, String leasePrefix, String leaseNamespace,
            Optional<String> namespace, Clock clock, BooleanSupplier leading, Function<String, Counter> moved) {
        this.client = client;
        this.shards = shards;
        this.leasePrefix = leasePrefix;
        this.leaseNamespace = leaseNamespace;
        this.namespace = namespace;
        this.clock = clock;
        this.leading = leading;
        this.moved = moved;
    }

    public void start() {
        timer.scheduleWithFixedDelay(() -> {
            try {
                moveOnce();
            } catch (RuntimeException e) {
                LOG.warn("could not check or move the shards' objects (tried again in 2 s): {}", e.toString());
            }
        }, 2, 2, TimeUnit.SECONDS);
    }

    /** One look at the shards' Leases, moving what a dead shard holds; the number of objects moved. */
    int moveOnce() {
        Map<Integer, Lease> leases = new HashMap<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            Lease lease = client.leases().inNamespace(leaseNamespace).withName(leasePrefix + "-shard-" + shard).get();
            if (lease != null) {
                leases.put(shard, lease);
            }
        }
        Set<Integer> dead = ShardLiveness.dead(leases, clock.instant());
        List<Integer> live = new ArrayList<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            if (!dead.contains(shard)) {
                live.add(shard);
            }
        }
        if (dead.isEmpty() || live.isEmpty() || live.get(0) != shards.id() || !leading.getAsBoolean()) {
            return 0;
        }
        int count = 0;
        for (int from : dead) {
            // components before their Kyma, so that the Kyma's new shard finds them in its cache
            count += move(HelmComponent.class, "helmcomponents", from, live);
            count += move(Run.class, "runs", from, live);
            count += move(Kyma.class, "kymas", from, live);
        }
        return count;
    }

    private <R extends HasMetadata> int move(Class<R> kind, String resource, int from, List<Integer> live) {
        var resources = client.resources(kind);
        var selected = namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace();
        int count = 0;
        for (R object : selected.withLabel(Labels.SHARD, Integer.toString(from)).list().getItems()) {
            String ns = object.getMetadata().getNamespace();
            int to = Shards.moveTo(ns, ShardAssigner.ownerName(object), live);
            // only if it is still on the dead shard: a test-and-replace patch fails on any other value
            String patch = "[{\"op\":\"test\",\"path\":\"/metadata/labels/" + Labels.SHARD.replace("/", "~1")
                    + "\",\"value\":\"" + from + "\"},{\"op\":\"replace\",\"path\":\"/metadata/labels/"
                    + Labels.SHARD.replace("/", "~1") + "\",\"value\":\"" + to + "\"}]";
            try {
                client.resources(kind).inNamespace(ns).withName(object.getMetadata().getName())
                        .patch(PatchContext.of(PatchType.JSON), patch);
                moved.apply(resource).increment();
                count++;
            } catch (KubernetesClientException e) {
                LOG.debug("{} {}/{} not moved: {}", resource, ns, object.getMetadata().getName(), e.getMessage());
            }
        }
        if (count > 0) {
            LOG.info("moved {} {} of shard {}, which is down, to shards {}", count, resource, from, live);
        }
        return count;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
