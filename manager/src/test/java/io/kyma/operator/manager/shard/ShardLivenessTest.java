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
        Map<Integer, Lease> leases = Map.of(0, lease(NOW.minusSeconds(3)));
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
