package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;

class ShardLivenessTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");

    @Test
    void aShardIsDownOnceItsLeaseRanOutWithAMargin() {
        Map<Integer, Lease> leases = Map.of(
                0, lease(NOW.minusSeconds(3)), // renewed lately
                1, lease(NOW.minusSeconds(16)), // 15 s lease run out, but within the margin
                2, lease(NOW.minusSeconds(18))); // run out
        assertThat(ShardLiveness.dead(leases, NOW)).containsExactly(2);
    }

    @Test
    void aShardWithoutALeaseOrARenewalIsStartingNotDown() {
        Map<Integer, Lease> leases = new TreeMap<>();
        leases.put(
                0,
                new LeaseBuilder()
                        .withNewSpec()
                        .withLeaseDurationSeconds(15)
                        .endSpec()
                        .build());
        assertThat(ShardLiveness.dead(leases, NOW)).isEmpty();
    }

    @Test
    void aShardThatNeverRenewedALeaseCountsAsDownOnceTheStartBoundHasPassed() {
        Map<Integer, Lease> leases = Map.of(
                0,
                lease(NOW.minusSeconds(3)),
                1,
                new LeaseBuilder()
                        .withNewSpec()
                        .withLeaseDurationSeconds(15)
                        .endSpec()
                        .build());
        Instant firstSeen = NOW.minus(ShardLiveness.START_BOUND);
        assertThat(ShardLiveness.dead(leases, Map.of(1, firstSeen), NOW))
                .as("still within the bound")
                .isEmpty();
        assertThat(ShardLiveness.dead(leases, Map.of(1, firstSeen.minusSeconds(1)), NOW))
                .containsExactly(1);
        assertThat(ShardLiveness.renewed(null)).isFalse();
        assertThat(ShardLiveness.renewed(new LeaseBuilder()
                        .withNewSpec()
                        .withLeaseDurationSeconds(15)
                        .endSpec()
                        .build()))
                .as("created, never renewed")
                .isFalse();
        assertThat(ShardLiveness.renewed(lease(NOW))).isTrue();
    }

    @Test
    void aShardIsHeldWhileANamedHolderRenewsItsLease() {
        Map<Integer, Lease> leases = new TreeMap<>();
        leases.put(0, held("replica-0", NOW.minusSeconds(3)));
        leases.put(1, held("replica-1", NOW.minusSeconds(16))); // run out: not held, not yet down
        leases.put(2, held("", NOW.minusSeconds(1))); // released
        leases.put(3, lease(NOW.minusSeconds(1))); // no holder named
        leases.put(4, held("replica-4", NOW.minusSeconds(14)));
        assertThat(ShardLiveness.held(leases, NOW)).containsExactly(0, 4);
        assertThat(ShardLiveness.dead(leases, NOW))
                .as("a shard neither held nor down is on its way")
                .isEmpty();
    }

    @Test
    void aDeadShardsObjectsSpreadOverTheLiveOnesAndOnlyThoseMove() {
        Map<Integer, Integer> moved = new TreeMap<>();
        for (int i = 0; i < 3000; i++) {
            int to = Shards.moveTo("pb", "kyma-" + i, List.of(0, 2));
            moved.merge(to, 1, Integer::sum);
            // with another shard down too, an object that went to a still-live shard stays there
            if (to == 0) {
                assertThat(Shards.moveTo("pb", "kyma-" + i, List.of(0))).isZero();
            }
            assertThat(Shards.moveTo("pb", "kyma-" + i, List.of(2, 0)))
                    .as("the order of the live list is no matter")
                    .isEqualTo(to);
        }
        assertThat(moved.keySet()).containsExactly(0, 2);
        assertThat(moved.values()).allSatisfy(n -> assertThat(n).isBetween(1350, 1650));
        assertThatThrownBy(() -> Shards.moveTo("pb", "k", List.of())).hasMessageContaining("no live shard");
    }

    /** What a shard's Lease may say when the mover first looks, and then as time passes. */
    private enum Layout {
        /** A replica leads it and renews its Lease. */
        LIVE,
        /** Its leader stopped renewing a minute ago. */
        EXPIRED,
        /** It never had a Lease: no replica of it ever started. */
        ABSENT,
        /** Its replica started just now and announced itself; its informers are still syncing. */
        ANNOUNCED,
        /** A Lease without a renewal, as someone may have created it by hand. */
        UNRENEWED
    }

    /**
     * Generated fleets of shards in every layout, watched by the mover over six minutes: a shard without any Lease is
     * taken over like one whose Lease expired (within {@link ShardLiveness#ABSENT_BOUND}, well within 80 s), a
     * starting one is left for the start bound, a live one never.
     */
    @Test
    void aShardThatNeverHadALeaseIsTakenOverLikeOneWhoseLeaseExpired() {
        java.util.Random random = new java.util.Random(55);
        Layout[] kinds = Layout.values();
        for (int fleet = 0; fleet < 200; fleet++) {
            int count = 2 + random.nextInt(7);
            Layout[] layout = new Layout[count];
            for (int shard = 0; shard < count; shard++) {
                layout[shard] = shard == 0 ? Layout.LIVE : kinds[random.nextInt(kinds.length)];
            }
            io.kyma.operator.testing.MutableClock clock = new io.kyma.operator.testing.MutableClock(NOW);
            Instant start = clock.instant();
            ShardLeases mover = new ShardLeases(null, new Shards(count, 0), "p", "ns", clock);
            Map<Integer, Lease> announced = new TreeMap<>();
            for (int shard = 0; shard < count; shard++) {
                ShardLeases replica = new ShardLeases(null, new Shards(count, shard), "p", "ns", clock);
                announced.put(shard, replica.announcement(start));
            }
            for (int step = 0; step <= 180; step++) {
                Instant now = clock.instant();
                Map<Integer, Lease> leases = new TreeMap<>();
                for (int shard = 0; shard < count; shard++) {
                    switch (layout[shard]) {
                        case LIVE -> leases.put(shard, held("replica-" + shard, now));
                        case EXPIRED -> leases.put(shard, held("replica-" + shard, start.minusSeconds(60)));
                        case ANNOUNCED -> leases.put(shard, announced.get(shard));
                        case UNRENEWED ->
                            leases.put(
                                    shard,
                                    new LeaseBuilder()
                                            .withNewSpec()
                                            .withLeaseDurationSeconds(15)
                                            .endSpec()
                                            .build());
                        case ABSENT -> {}
                    }
                }
                java.util.Set<Integer> dead = mover.dead(mover.noted(leases));
                java.time.Duration since = java.time.Duration.between(start, now);
                for (int shard = 0; shard < count; shard++) {
                    boolean expected = switch (layout[shard]) {
                        case LIVE -> false;
                        case EXPIRED -> true;
                        case ABSENT -> since.compareTo(ShardLiveness.ABSENT_BOUND) > 0;
                        case ANNOUNCED -> since.compareTo(ShardLiveness.START_BOUND.plus(ShardLiveness.MARGIN)) > 0;
                        case UNRENEWED -> since.compareTo(ShardLiveness.START_BOUND) > 0;
                    };
                    assertThat(dead.contains(shard))
                            .as("fleet %d, shard %d %s after %s", fleet, shard, layout[shard], since)
                            .isEqualTo(expected);
                }
                assertThat(ShardLiveness.held(leases, now))
                        .as("only a named, renewing holder takes objects")
                        .allSatisfy(shard -> assertThat(layout[shard]).isEqualTo(Layout.LIVE));
                clock.advance(java.time.Duration.ofSeconds(2));
            }
        }
        assertThat(ShardLiveness.ABSENT_BOUND).isLessThan(java.time.Duration.ofSeconds(80));
    }

    private static Lease held(String holder, Instant renewed) {
        Lease lease = lease(renewed);
        lease.getSpec().setHolderIdentity(holder);
        return lease;
    }

    private static Lease lease(Instant renewed) {
        return new LeaseBuilder()
                .withNewSpec()
                .withLeaseDurationSeconds(15)
                .withRenewTime(renewed.atZone(ZoneOffset.UTC))
                .endSpec()
                .build();
    }
}
