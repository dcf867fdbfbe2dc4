package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.MutableClock;
import io.kyma.operator.testing.Namespaces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Objects labelled for a shard beyond {@code --shards} (the count was lowered) move to the live shards once no
 * replica leads that shard, on the real API server; the leader of the lowest live shard moves them.
 */
class ShardMoverIT {
    private static final String NS = "shard-mover";
    private static final String PREFIX = "mover";
    private static KubernetesClient admin;

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    @Test
    void objectsOfAShardBeyondTheCountMoveOnceNoReplicaLeadsIt() {
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // two shards now, both led; shard 7 of the old count is still led by a replica that has not stopped yet
        lease(0, clock.instant());
        lease(1, clock.instant());
        lease(7, clock.instant());
        kyma("left-on-five", "5");
        component("left-on-five-istio", "left-on-five", "5");
        kyma("left-on-seven", "7");
        kyma("hand-labelled", "blue");
        kyma("on-one", "1");
        ShardMover mover = new ShardMover(admin, new Shards(2, 0), PREFIX, NS, Optional.of(NS), clock, () -> true,
                r -> registry.counter("moved", "resource", r));

        assertThat(mover.moveOnce()).as("shard 5 has no Lease, 'blue' names no shard; shard 7 is led").isEqualTo(3);
        List<Integer> live = List.of(0, 1);
        int five = Shards.moveTo(NS, "left-on-five", live);
        assertThat(shardOf(Kyma.class, "left-on-five")).isEqualTo(Integer.toString(five));
        assertThat(shardOf(HelmComponent.class, "left-on-five-istio")).as("with its Kyma")
                .isEqualTo(Integer.toString(five));
        assertThat(shardOf(Kyma.class, "hand-labelled")).isEqualTo(Integer.toString(Shards.moveTo(NS,
                "hand-labelled", live)));
        assertThat(shardOf(Kyma.class, "left-on-seven")).as("its replica may still reconcile it").isEqualTo("7");
        assertThat(shardOf(Kyma.class, "on-one")).isEqualTo("1");

        // shard 7's replica stopped: its Lease runs out; shards 0 and 1 renew theirs
        clock.advance(ShardMover.GONE_CHECK.plusSeconds(1));
        lease(0, clock.instant());
        lease(1, clock.instant());
        assertThat(mover.moveOnce()).isEqualTo(1);
        assertThat(shardOf(Kyma.class, "left-on-seven")).isEqualTo(Integer.toString(Shards.moveTo(NS,
                "left-on-seven", live)));
        assertThat(registry.counter("moved", "resource", "kymas").count()).isEqualTo(3);
        assertThat(registry.counter("moved", "resource", "helmcomponents").count()).isEqualTo(1);

        // on another shard, or not leading: nothing to do
        kyma("left-on-nine", "9");
        clock.advance(ShardMover.GONE_CHECK.plusSeconds(1));
        lease(0, clock.instant());
        lease(1, clock.instant());
        assertThat(new ShardMover(admin, new Shards(2, 1), PREFIX, NS, Optional.of(NS), clock, () -> true,
                r -> registry.counter("moved", "resource", r)).moveOnce()).isZero();
        assertThat(new ShardMover(admin, new Shards(2, 0), PREFIX, NS, Optional.of(NS), clock, () -> false,
                r -> registry.counter("moved", "resource", r)).moveOnce()).isZero();
        assertThat(shardOf(Kyma.class, "left-on-nine")).isEqualTo("9");
    }

    private static void lease(int shard, Instant renewed) {
        Lease lease = new LeaseBuilder().withNewMetadata().withName(PREFIX + "-shard-" + shard).withNamespace(NS)
                .endMetadata().withNewSpec().withHolderIdentity("replica-" + shard).withLeaseDurationSeconds(15)
                .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC)).endSpec().build();
        admin.resource(lease).forceConflicts().serverSideApply();
    }

    private static void kyma(String name, String shard) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withLabels(Map.of(Labels.SHARD,
                shard)).build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(List.of(new Module("istio", null)));
        admin.resource(kyma).create();
    }

    private static void component(String name, String kyma, String shard) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withLabels(Map.of(
                Labels.SHARD, shard, Labels.KYMA, kyma)).build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule("istio");
        component.getSpec().setKyma(kyma);
        admin.resource(component).create();
    }

    private static <R extends HasMetadata> String shardOf(Class<R> kind, String name) {
        return admin.resources(kind).inNamespace(NS).withName(name).get().getMetadata().getLabels()
                .get(Labels.SHARD);
    }
}
