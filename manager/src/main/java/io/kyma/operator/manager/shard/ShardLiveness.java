package io.kyma.operator.manager.shard;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;

/**
 * Which shards are down, from their leader-election Leases: a shard whose Lease was not renewed for its whole
 * duration plus a margin has no replica reconciling (a leader that cannot renew exits before its Lease runs out), so
 * its objects can go to another shard without two replicas ever reconciling one object. A shard without any Lease
 * is an orphan: no replica of it ever started, since a starting replica announces itself at once with a free Lease
 * lasting {@link #START_BOUND} ({@link ShardLeases#announce}); once it has gone without one for
 * {@link #ABSENT_BOUND}, as long as a leader's Lease takes to run out, it counts as down like a shard whose Lease
 * expired. A Lease that exists but was never renewed counts as starting for {@link #START_BOUND}, then as down.
 */
public final class ShardLiveness {
    /** Beyond the Lease's own duration, for clocks that differ a little between replicas. */
    public static final Duration MARGIN = Duration.ofSeconds(2);
    /**
     * The holder the mover writes into a dead shard's Lease while it moves that shard's objects, so that no replica
     * can take the shard meanwhile ({@link ShardMover}); such a shard is not held by a replica.
     */
    public static final String MOVER_PREFIX = "kyma-operator-shard-mover-";

    /**
     * How long a shard may go without a renewed Lease, as seen by the mover, before it counts as down. A replica takes
     * its Lease once its informers have synced, which for a large shard on a fresh start takes a while (the pod's
     * start, the image's pull, the paged lists of its objects); a shard counted down too early has its objects moved
     * away and back.
     */
    public static final Duration START_BOUND = Duration.ofMinutes(5);
    /**
     * How long a shard may go without any Lease, as seen by the mover, before it counts as down: what a leader's Lease
     * of the default duration (15 s) takes to run out, with the margin. A replica creates its Lease within moments of
     * starting, long before its informers have synced; a shard with none has no replica.
     */
    public static final Duration ABSENT_BOUND = Duration.ofSeconds(15).plus(MARGIN);

    private ShardLiveness() {}

    /**
     * The shards down: those whose Lease ran out, those without any Lease since longer than {@link #ABSENT_BOUND},
     * and those with a Lease never renewed since longer than {@link #START_BOUND}.
     *
     * @param unrenewedSince for each shard seen without a Lease or without a renewal, since when
     */
    public static Set<Integer> dead(Map<Integer, Lease> leases, Map<Integer, Instant> unrenewedSince, Instant now) {
        Set<Integer> dead = dead(leases, now);
        unrenewedSince.forEach((shard, since) -> {
            if (now.isAfter(since.plus(leases.get(shard) == null ? ABSENT_BOUND : START_BOUND))) {
                dead.add(shard);
            }
        });
        return dead;
    }

    /** Whether the Lease says a replica ever renewed it; a missing Lease says not. */
    public static boolean renewed(Lease lease) {
        return expiry(lease).isPresent();
    }

    /** @param leases each shard's Lease, by shard; a shard missing from the map has none */
    public static Set<Integer> dead(Map<Integer, Lease> leases, Instant now) {
        Set<Integer> dead = new TreeSet<>();
        leases.forEach((shard, lease) -> expiry(lease).filter(now::isAfter).ifPresent(e -> dead.add(shard)));
        return dead;
    }

    /**
     * The shards a replica leads now: a holder is named and the Lease has not run out. Only these can answer a drain
     * or take objects handed over from a live shard.
     */
    public static Set<Integer> held(Map<Integer, Lease> leases, Instant now) {
        Set<Integer> held = new TreeSet<>();
        leases.forEach((shard, lease) -> {
            boolean named = lease != null
                    && lease.getSpec() != null
                    && lease.getSpec().getHolderIdentity() != null
                    && !lease.getSpec().getHolderIdentity().isEmpty()
                    && !lease.getSpec().getHolderIdentity().startsWith(MOVER_PREFIX);
            if (named
                    && expiry(lease).filter(e -> now.isBefore(e.minus(MARGIN))).isPresent()) {
                held.add(shard);
            }
        });
        return held;
    }

    private static Optional<Instant> expiry(Lease lease) {
        if (lease == null
                || lease.getSpec() == null
                || lease.getSpec().getRenewTime() == null
                || lease.getSpec().getLeaseDurationSeconds() == null) {
            return Optional.empty();
        }
        Instant renewed = lease.getSpec().getRenewTime().toInstant();
        return Optional.of(
                renewed.plusSeconds(lease.getSpec().getLeaseDurationSeconds()).plus(MARGIN));
    }
}
