package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.GoDuration;
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
 * <p>
 * The Leases are read and held through {@link ShardLeases}, the labels beyond {@code --shards} found by
 * {@link GoneShardLabels}, and the objects relabelled by the {@link Relabeler}; this class decides when, and what.
 */
public final class ShardMover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardMover.class);

    private final Shards shards;
    private final Clock clock;
    private final BooleanSupplier leading;
    private final ShardLeases shardLeases;
    private final GoneShardLabels goneLabels;
    private final Relabeler relabeler;
    private final ShardRebalancer rebalancer;
    /** How often the mover looks at the shards' Leases. */
    public static final Duration CHECK = Duration.ofSeconds(2);
    /** How often to look for objects of shards beyond --shards: a list of every kind, so not at every check. */
    static final Duration GONE_CHECK = Duration.ofSeconds(30);

    private Instant lookedForGone;

    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("shard-mover"));

    /**
     * @param leasePrefix the leader-election id; shard i's Lease is {@code <prefix>-shard-<i>}
     * @param leading whether this replica leads its shard
     * @param moved the counter of objects moved, by resource
     * @param drains the counter of drains asked for, by resource
     */
    public ShardMover(
            KubernetesClient client,
            Shards shards,
            String leasePrefix,
            String leaseNamespace,
            Optional<String> namespace,
            Clock clock,
            BooleanSupplier leading,
            Function<String, Counter> moved,
            Function<String, Counter> drains) {
        this.shards = shards;
        this.clock = clock;
        this.leading = leading;
        this.shardLeases = new ShardLeases(client, shards, leasePrefix, leaseNamespace, clock);
        this.goneLabels = new GoneShardLabels(client, shards, namespace, shardLeases, clock);
        this.relabeler = new Relabeler(client, namespace, moved);
        this.rebalancer = new ShardRebalancer(client, shards, namespace, clock, drains, moved);
    }

    public void start() {
        timer.execute(shardLeases::announce);
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        Map<Integer, Lease> leases = shardLeases.read();
                        moveOnce(leases);
                        rebalanceOnce(leases);
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "could not check or move the shards' objects (tried again in {}): {}",
                                GoDuration.format(CHECK),
                                e.toString());
                    }
                },
                CHECK.toMillis(),
                CHECK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One look at the shards' Leases, moving what a dead shard holds; the number of objects moved. */
    int moveOnce() {
        return moveOnce(shardLeases.read());
    }

    /** One step of handing objects off their shard to their own ({@link ShardRebalancer}); the objects moved. */
    int rebalanceOnce() {
        return rebalanceOnce(shardLeases.read());
    }

    private int rebalanceOnce(Map<Integer, Lease> leases) {
        return live(leases).isPresent() ? rebalancer.rebalance(ShardLiveness.held(leases, clock.instant())) : 0;
    }

    /**
     * The shards a replica holds now, which alone take moved objects, if this replica is the one that moves them: it
     * leads the lowest of them. A shard still starting takes nothing, and holds nothing up.
     */
    private Optional<List<Integer>> live(Map<Integer, Lease> leases) {
        List<Integer> live = List.copyOf(ShardLiveness.held(leases, clock.instant()));
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
        Set<Integer> dead = shardLeases.dead(leases);
        // each label to move off, with the Lease of its shard as read (null: none, or not a shard number)
        Map<String, Lease> from = new TreeMap<>();
        dead.forEach(shard -> from.put(Integer.toString(shard), leases.get(shard)));
        if (lookedForGone == null || !clock.instant().isBefore(lookedForGone.plus(GONE_CHECK))) {
            lookedForGone = clock.instant();
            from.putAll(goneLabels.find());
        }
        int count = 0;
        for (Map.Entry<String, Lease> shard : from.entrySet()) {
            Optional<Claim> claim = Optional.empty();
            OptionalInt number = Shards.number(shard.getKey());
            // A Lease is created only for a shard of this fleet; beyond --shards only one that exists is held, so a
            // label written by hand cannot make the mover create Leases.
            if (number.isPresent() && (number.getAsInt() < shards.count() || shard.getValue() != null)) {
                // The Lease ran out when it was read; a replica may have taken the shard since. Holding its Lease
                // while the objects move keeps one from taking it halfway, and fails if one took it already.
                claim = claim(number.getAsInt(), shard.getValue());
                if (claim.isEmpty()) {
                    LOG.info(
                            "shard {} was taken by a replica since its Lease was read: its objects stay",
                            shard.getKey());
                    continue;
                }
            }
            try {
                BooleanSupplier held = claim.isPresent() ? claim.get()::renewIfDue : () -> true;
                // components before their Kyma, so that the Kyma's new shard finds them in its cache
                count += relabeler.move(HelmComponent.class, "helmcomponents", shard.getKey(), live, held);
                count += relabeler.move(Run.class, "runs", shard.getKey(), live, held);
                count += relabeler.move(Kyma.class, "kymas", shard.getKey(), live, held);
            } finally {
                claim.ifPresent(Claim::release);
            }
        }
        return count;
    }

    /**
     * Takes a dead shard's Lease for the mover ({@link ShardLeases#claim}): an update of the Lease as it was read (or
     * its creation, if it had none), which the API server refuses if a replica took the shard since. Empty if refused.
     */
    Optional<Claim> claim(int shard, Lease seen) {
        return shardLeases.claim(shard, seen);
    }

    /** The mover's hold on a dead shard's Lease while it moves the shard's objects. */
    interface Claim {
        /** Renews the hold when a third of it has passed; false if the Lease was taken from the mover. */
        boolean renewIfDue();

        /** Gives the Lease up, so that a replica of the shard can take it at once. */
        void release();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
