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
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
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
 * ({@link Shards#moveTo}), and each component to its Kyma's. No handshake is needed there: no replica of a dead
 * shard reconciles. Objects on a live shard other than their own (a shard that came back, or one added) are handed
 * over by the {@link ShardRebalancer} through the {@link ShardDrain} handshake, in the same look at the Leases.
 * <p>
 * Objects labelled for a shard that does not exist any more (after {@code --shards} was lowered, or a label written
 * by hand) move the same way, once that shard's Lease, if it has one, has run out too: while the replicas roll to
 * the new count, a replica of the old count may still lead that shard and reconcile them. A label that names no
 * shard at all (not a number) has no replica that could hold it and moves at once.
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
    private final ShardRebalancer rebalancer;
    /** How often the mover looks at the shards' Leases. */
    public static final java.time.Duration CHECK = java.time.Duration.ofSeconds(2);
    /** How often to look for objects of shards beyond --shards: a list of every kind, so not at every check. */
    static final java.time.Duration GONE_CHECK = java.time.Duration.ofSeconds(30);
    private java.time.Instant lookedForGone;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("shard-mover"));

    /**
     * @param leasePrefix the leader-election id; shard i's Lease is {@code <prefix>-shard-<i>}
     * @param leading whether this replica leads its shard
     * @param moved the counter of objects moved, by resource
     * @param drains the counter of drains asked for, by resource
     */
    public ShardMover(KubernetesClient client, Shards shards, String leasePrefix, String leaseNamespace,
            Optional<String> namespace, Clock clock, BooleanSupplier leading, Function<String, Counter> moved,
            Function<String, Counter> drains) {
        this.client = client;
        this.shards = shards;
        this.leasePrefix = leasePrefix;
        this.leaseNamespace = leaseNamespace;
        this.namespace = namespace;
        this.clock = clock;
        this.leading = leading;
        this.moved = moved;
        this.rebalancer = new ShardRebalancer(client, shards, namespace, clock, drains, moved);
    }

    public void start() {
        timer.scheduleWithFixedDelay(() -> {
            try {
                Map<Integer, Lease> leases = leases();
                moveOnce(leases);
                rebalanceOnce(leases);
            } catch (RuntimeException e) {
                LOG.warn("could not check or move the shards' objects (tried again in {} s): {}", CHECK.toSeconds(),
                        e.toString());
            }
        }, CHECK.toMillis(), CHECK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One look at the shards' Leases, moving what a dead shard holds; the number of objects moved. */
    int moveOnce() {
        return moveOnce(leases());
    }

    /** One step of handing objects off their shard to their own ({@link ShardRebalancer}); the objects moved. */
    int rebalanceOnce() {
        return rebalanceOnce(leases());
    }

    private int rebalanceOnce(Map<Integer, Lease> leases) {
        return live(leases).isPresent() ? rebalancer.rebalance(ShardLiveness.held(leases, clock.instant())) : 0;
    }

    /** Each shard's Lease, by shard; a shard without one is missing. */
    private Map<Integer, Lease> leases() {
        Map<Integer, Lease> leases = new HashMap<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            Lease lease = client.leases().inNamespace(leaseNamespace).withName(leasePrefix + "-shard-" + shard).get();
            if (lease != null) {
                leases.put(shard, lease);
            }
        }
        return leases;
    }

    /** The shards not down, if this replica is the one that moves objects: it leads the lowest of them. */
    private Optional<List<Integer>> live(Map<Integer, Lease> leases) {
        Set<Integer> dead = ShardLiveness.dead(leases, clock.instant());
        List<Integer> live = new ArrayList<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            if (!dead.contains(shard)) {
                live.add(shard);
            }
        }
        if (live.isEmpty() || live.get(0) != shards.id() || !leading.getAsBoolean()) {
            return Optional.empty();
        }
        return Optional.of(live);
    }

    private int moveOnce(Map<Integer, Lease> leases) {
        Optional<List<Integer>> alive = live(leases);
        if (alive.isEmpty()) {
            return 0;
        }
        List<Integer> live = alive.get();
        Set<Integer> dead = ShardLiveness.dead(leases, clock.instant());
        Set<String> from = new java.util.TreeSet<>();
        dead.forEach(shard -> from.add(Integer.toString(shard)));
        if (lookedForGone == null || !clock.instant().isBefore(lookedForGone.plus(GONE_CHECK))) {
            lookedForGone = clock.instant();
            from.addAll(gone());
        }
        int count = 0;
        for (String shard : from) {
            // components before their Kyma, so that the Kyma's new shard finds them in its cache
            count += move(HelmComponent.class, "helmcomponents", shard, live);
            count += move(Run.class, "runs", shard, live);
            count += move(Kyma.class, "kymas", shard, live);
        }
        return count;
    }

    /**
     * Labels of shards beyond {@code --shards} that objects still carry and that no replica leads: no Lease, or one
     * that ran out; and labels that are not a shard number at all.
     */
    private Set<String> gone() {
        String[] existing = new String[shards.count()];
        for (int shard = 0; shard < shards.count(); shard++) {
            existing[shard] = Integer.toString(shard);
        }
        Set<String> labels = new java.util.TreeSet<>();
        for (Class<? extends HasMetadata> kind : List.of(HelmComponent.class, Run.class, Kyma.class)) {
            var resources = client.resources(kind);
            var selected = namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace();
            // from the API server's watch cache (resourceVersion 0), not a read of every object from etcd
            selected.withLabel(Labels.SHARD).withLabelNotIn(Labels.SHARD, existing)
                    .list(new ListOptionsBuilder().withResourceVersion("0").build()).getItems()
                    .forEach(o -> labels.add(o.getMetadata().getLabels().get(Labels.SHARD)));
        }
        Set<String> gone = new java.util.TreeSet<>();
        for (String label : labels) {
            if (!label.matches("[0-9]{1,9}")) {
                gone.add(label);
                continue;
            }
            int shard = Integer.parseInt(label);
            Lease lease = client.leases().inNamespace(leaseNamespace).withName(leasePrefix + "-shard-" + shard).get();
            if (lease == null || !ShardLiveness.dead(Map.of(shard, lease), clock.instant()).isEmpty()) {
                gone.add(label);
            } else {
                LOG.info("shard {} is beyond --shards {} but its Lease is held: its objects move once it runs out",
                        shard, shards.count());
            }
        }
        return gone;
    }

    private <R extends HasMetadata> int move(Class<R> kind, String resource, String from, List<Integer> live) {
        var resources = client.resources(kind);
        var selected = namespace.isPresent() ? resources.inNamespace(namespace.get()) : resources.inAnyNamespace();
        int count = 0;
        for (R object : selected.withLabel(Labels.SHARD, from).list().getItems()) {
            String ns = object.getMetadata().getNamespace();
            int to = Shards.moveTo(ns, ShardAssigner.ownerName(object), live);
            // only if it is still on the dead shard: a test-and-replace patch fails on any other value
            String patch = "[{\"op\":\"test\",\"path\":\"/metadata/labels/" + Labels.SHARD.replace("/", "~1")
                    + "\",\"value\":\"" + from + "\"},{\"op\":\"replace\",\"path\":\"/metadata/labels/"
                    + Labels.SHARD.replace("/", "~1") + "\",\"value\":\"" + to + "\"}"
                    // a hand-over the dead shard was asked for ends with the move
                    + (ShardDrain.state(object).isPresent() ? ",{\"op\":\"remove\",\"path\":\"/metadata/labels/"
                            + Labels.SHARD_DRAIN.replace("/", "~1") + "\"}" : "") + "]";
            try {
                // the object in hand: the patch goes out without a read of the object first
                client.resources(kind).resource(object).patch(PatchContext.of(PatchType.JSON), patch);
                moved.apply(resource).increment();
                count++;
            } catch (KubernetesClientException e) {
                LOG.debug("{} {}/{} not moved: {}", resource, ns, object.getMetadata().getName(), e.getMessage());
            }
        }
        if (count > 0) {
            LOG.info("moved {} {} of shard {}, which is down or gone, to shards {}", count, resource, from, live);
        }
        return count;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
