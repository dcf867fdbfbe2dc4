package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.common.status.ApiFailure;

/**
 * The shards' leader-election Leases as the {@link ShardMover} reads and takes them; shard i's is
 * {@code <prefix>-shard-<i>}. It notes since when each shard of the fleet has gone without a renewed Lease, for
 * {@link ShardLiveness} to count a shard that never came up as down, and it takes a dead shard's Lease for the mover
 * while the mover moves that shard's objects ({@link ShardMover.Claim}).
 */
final class ShardLeases {
    private static final Logger LOG = LoggerFactory.getLogger(ShardLeases.class);
    /** How long the mover's hold on a dead shard's Lease lasts unless renewed. */
    static final int CLAIM_SECONDS = 15;

    private final KubernetesClient client;
    private final Shards shards;
    private final String prefix;
    private final String namespace;
    private final Clock clock;
    /** Shards of the fleet seen without a Lease, or with one never renewed, since when: see {@link ShardLiveness}. */
    private final Map<Integer, Instant> unrenewedSince = new HashMap<>();

    /**
     * @param prefix the leader-election id
     * @param namespace where the Leases are
     */
    ShardLeases(KubernetesClient client, Shards shards, String prefix, String namespace, Clock clock) {
        this.client = client;
        this.shards = shards;
        this.prefix = prefix;
        this.namespace = namespace;
        this.clock = clock;
    }

    /** Each shard's Lease, by shard; a shard without one is missing. Notes the shards never renewed since when. */
    Map<Integer, Lease> read() {
        Map<Integer, Lease> leases = new HashMap<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            Lease lease = read(shard);
            if (lease != null) {
                leases.put(shard, lease);
            }
        }
        return noted(leases);
    }

    /** Notes since when each shard of the fleet has gone without a renewed Lease, as {@code leases} say. */
    Map<Integer, Lease> noted(Map<Integer, Lease> leases) {
        for (int shard = 0; shard < shards.count(); shard++) {
            if (ShardLiveness.renewed(leases.get(shard))) {
                unrenewedSince.remove(shard);
            } else {
                unrenewedSince.putIfAbsent(shard, clock.instant());
            }
        }
        return leases;
    }

    /**
     * Says that this replica's shard is starting: creates the shard's Lease, unless it has one, with no holder (so
     * that the elector takes it at once) and lasting {@link ShardLiveness#START_BOUND}, so that the mover waits that
     * long for this replica's informers to sync instead of moving its objects away. A shard that never gets a Lease
     * has no replica, and its objects move within {@link ShardLiveness#ABSENT_BOUND}.
     */
    void announce() {
        try {
            client.leases()
                    .inNamespace(namespace)
                    .resource(announcement(clock.instant()))
                    .create();
        } catch (KubernetesClientException e) {
            // 409: the elector or the mover was first, and the Lease says what it should
            if (e.getCode() != 409) {
                LOG.warn("shard {}: could not announce it is starting ({})", shards.id(), ApiFailure.describe(e));
            }
        }
    }

    /** The Lease that announces this replica's shard as starting at {@code now}. */
    Lease announcement(Instant now) {
        ZonedDateTime at = ZonedDateTime.ofInstant(now, ZoneOffset.UTC);
        return new LeaseBuilder()
                .withNewMetadata()
                .withName(name(shards.id()))
                .withNamespace(namespace)
                .endMetadata()
                .withNewSpec()
                .withAcquireTime(at)
                .withRenewTime(at)
                .withLeaseDurationSeconds((int) ShardLiveness.START_BOUND.toSeconds())
                .endSpec()
                .build();
    }

    /** One shard's Lease, of this fleet or beyond it; null if it has none. */
    Lease read(int shard) {
        return client.leases().inNamespace(namespace).withName(name(shard)).get();
    }

    /** The shards of {@code leases}, as last {@link #read()}, that are down ({@link ShardLiveness#dead}). */
    Set<Integer> dead(Map<Integer, Lease> leases) {
        return ShardLiveness.dead(leases, unrenewedSince, clock.instant());
    }

    private String name(int shard) {
        return prefix + "-shard-" + shard;
    }

    /**
     * Takes a dead shard's Lease for the mover: an update of the Lease as it was read (or its creation, if it had
     * none), which the API server refuses if a replica took the shard since. Empty if refused.
     */
    Optional<ShardMover.Claim> claim(int shard, Lease seen) {
        ZonedDateTime now = ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        Lease claimed = seen != null
                ? new LeaseBuilder(seen)
                        .editOrNewSpec()
                        .withHolderIdentity(ShardLiveness.MOVER_PREFIX + shards.id())
                        .withAcquireTime(now)
                        .withRenewTime(now)
                        .withLeaseDurationSeconds(CLAIM_SECONDS)
                        .endSpec()
                        .build()
                : new LeaseBuilder()
                        .withNewMetadata()
                        .withName(name(shard))
                        .withNamespace(namespace)
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity(ShardLiveness.MOVER_PREFIX + shards.id())
                        .withAcquireTime(now)
                        .withRenewTime(now)
                        .withLeaseDurationSeconds(CLAIM_SECONDS)
                        .endSpec()
                        .build();
        try {
            var leases = client.leases().inNamespace(namespace);
            return Optional.of(new Held(
                    seen != null
                            ? leases.resource(claimed).update()
                            : leases.resource(claimed).create()));
        } catch (KubernetesClientException e) {
            LOG.debug("shard {}: its Lease changed since it was read ({})", shard, e.getMessage());
            return Optional.empty();
        }
    }

    /** The mover's hold on a dead shard's Lease, as the API server last answered it. */
    private final class Held implements ShardMover.Claim {
        private Lease lease;

        Held(Lease lease) {
            this.lease = lease;
        }

        /** Renews the hold when a third of it has passed. */
        @Override
        public boolean renewIfDue() {
            Instant renewed = lease.getSpec().getRenewTime().toInstant();
            if (clock.instant().isBefore(renewed.plusSeconds(CLAIM_SECONDS / 3))) {
                return true;
            }
            try {
                lease = client.leases()
                        .inNamespace(namespace)
                        .resource(new LeaseBuilder(lease)
                                .editSpec()
                                .withRenewTime(ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC))
                                .endSpec()
                                .build())
                        .update();
                return true;
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "lost the hold on Lease {} while moving its objects; the rest stay: {}",
                        lease.getMetadata().getName(),
                        e.getMessage());
                return false;
            }
        }

        @Override
        public void release() {
            try {
                client.leases()
                        .inNamespace(namespace)
                        .resource(new LeaseBuilder(lease)
                                .editSpec()
                                .withHolderIdentity("")
                                .endSpec()
                                .build())
                        .update();
            } catch (KubernetesClientException e) {
                LOG.debug(
                        "Lease {} not given up ({}); it runs out by itself",
                        lease.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }
}
