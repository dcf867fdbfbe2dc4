package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
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
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.MutableClock;
import io.kyma.operator.testing.Namespaces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * On the real API server: objects labelled for a shard beyond {@code --shards} (the count was lowered) move to the
 * live shards once no replica leads that shard; objects on a live shard other than their own (the count was raised)
 * are handed over through the drain handshake. The leader of the lowest live shard moves them.
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
        ShardMover mover = mover(new Shards(2, 0), NS, clock, () -> true, registry);
        // the mover finds the labels to move in the API server's watch cache
        awaitCached(NS, Kyma.class, "on-one", "1", null);
        awaitCached(NS, HelmComponent.class, "left-on-five-istio", "5", null);

        assertThat(mover.moveOnce())
                .as("shard 5 has no Lease, 'blue' names no shard; shard 7 is led")
                .isEqualTo(3);
        List<Integer> live = List.of(0, 1);
        int five = Shards.moveTo(NS, "left-on-five", live);
        assertThat(shardOf(Kyma.class, "left-on-five")).isEqualTo(Integer.toString(five));
        assertThat(shardOf(HelmComponent.class, "left-on-five-istio"))
                .as("with its Kyma")
                .isEqualTo(Integer.toString(five));
        assertThat(shardOf(Kyma.class, "hand-labelled"))
                .isEqualTo(Integer.toString(Shards.moveTo(NS, "hand-labelled", live)));
        assertThat(shardOf(Kyma.class, "left-on-seven"))
                .as("its replica may still reconcile it")
                .isEqualTo("7");
        assertThat(shardOf(Kyma.class, "on-one")).isEqualTo("1");
        assertThat(admin.leases().inNamespace(NS).withName(PREFIX + "-shard-5").get())
                .as("no Lease is made for a shard beyond --shards, whatever labels say")
                .isNull();

        // shard 7's replica stopped: its Lease runs out; shards 0 and 1 renew theirs
        clock.advance(ShardMover.GONE_CHECK.plusSeconds(1));
        lease(0, clock.instant());
        lease(1, clock.instant());
        assertThat(mover.moveOnce()).isEqualTo(1);
        assertThat(shardOf(Kyma.class, "left-on-seven"))
                .isEqualTo(Integer.toString(Shards.moveTo(NS, "left-on-seven", live)));
        assertThat(registry.counter("moved", "resource", "kymas").count()).isEqualTo(3);
        assertThat(registry.counter("moved", "resource", "helmcomponents").count())
                .isEqualTo(1);

        // on another shard, or not leading: nothing to do
        kyma("left-on-nine", "9");
        clock.advance(ShardMover.GONE_CHECK.plusSeconds(1));
        lease(0, clock.instant());
        lease(1, clock.instant());
        assertThat(mover(new Shards(2, 1), NS, clock, () -> true, registry).moveOnce())
                .isZero();
        assertThat(mover(new Shards(2, 0), NS, clock, () -> false, registry).moveOnce())
                .isZero();
        assertThat(shardOf(Kyma.class, "left-on-nine")).isEqualTo("9");
    }

    @Test
    void anObjectOffItsShardMovesOnlyOnceItsShardAnsweredForTheWholeFamily() {
        String ns = "shard-handover";
        Namespaces.apply(admin, ns);
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Shards three = new Shards(3, 0);
        for (int shard = 0; shard < 3; shard++) {
            lease(ns, shard, clock.instant());
        }
        // the count was raised from two to three: these sit on shards 0 and 1 but belong on shard 2
        String family = nameOn(three, ns, "family", 2);
        String other = nameOn(three, ns, "other", 2);
        String home = nameOn(three, ns, "home", 0);
        kyma(ns, family, "0");
        component(ns, family + "-a", family, "0");
        component(ns, family + "-b", family, "0");
        kyma(ns, other, "1");
        kyma(ns, home, "0");
        ShardMover mover = mover(three, ns, clock, () -> true, registry);
        // the mover looks for its work in the API server's watch cache
        awaitCached(ns, Kyma.class, home, "0", null);

        assertThat(mover.rebalanceOnce()).isZero();
        assertThat(drain(ns, Kyma.class, family)).isEqualTo(ShardDrain.REQUESTED);
        assertThat(drain(ns, HelmComponent.class, family + "-a")).isEqualTo(ShardDrain.REQUESTED);
        assertThat(drain(ns, Kyma.class, other)).isEqualTo(ShardDrain.REQUESTED);
        assertThat(drain(ns, Kyma.class, home)).as("on its own shard").isNull();
        assertThat(registry.counter("drains", "resource", "helmcomponents").count())
                .isEqualTo(2);

        // shard 0's replica answers for the Kyma and one component; a component created meanwhile was not asked
        answer(ns, Kyma.class, family);
        answer(ns, HelmComponent.class, family + "-a");
        component(ns, family + "-late", family, "0");
        awaitCached(ns, Kyma.class, family, "0", ShardDrain.DRAINED);
        assertThat(mover.rebalanceOnce()).isZero();
        assertThat(drain(ns, HelmComponent.class, family + "-late"))
                .as("asked before anything moves")
                .isEqualTo(ShardDrain.REQUESTED);
        assertThat(shardOf(ns, HelmComponent.class, family + "-a"))
                .as("its family is not done")
                .isEqualTo("0");

        answer(ns, HelmComponent.class, family + "-b");
        answer(ns, HelmComponent.class, family + "-late");
        awaitCached(ns, Kyma.class, family, "0", ShardDrain.DRAINED);
        assertThat(mover.rebalanceOnce())
                .as("the Kyma and its three components")
                .isEqualTo(4);
        for (String name : List.of(family + "-a", family + "-b", family + "-late")) {
            assertThat(shardOf(ns, HelmComponent.class, name)).isEqualTo("2");
            assertThat(drain(ns, HelmComponent.class, name)).isNull();
        }
        assertThat(shardOf(ns, Kyma.class, family)).isEqualTo("2");
        assertThat(drain(ns, Kyma.class, family)).isNull();

        // shard 1 never answered and went down: the move off a dead shard takes the other one, and ends its drain
        clock.advance(Duration.ofSeconds(20));
        lease(ns, 0, clock.instant());
        lease(ns, 2, clock.instant());
        awaitCached(ns, Kyma.class, other, "1", ShardDrain.REQUESTED);
        assertThat(mover.moveOnce()).isEqualTo(1);
        assertThat(shardOf(ns, Kyma.class, other)).isEqualTo(Integer.toString(Shards.moveTo(ns, other, List.of(0, 2))));
        assertThat(drain(ns, Kyma.class, other)).isNull();
        assertThat(registry.counter("moved", "resource", "kymas").count()).isEqualTo(2);
    }

    @Test
    void aDrainWrittenByHandOnAComponentWhoseKymaIsNotHandedOverIsTakenBack() {
        String ns = "shard-orphan-drain";
        Namespaces.apply(admin, ns);
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Shards two = new Shards(2, 0);
        lease(ns, 0, clock.instant());
        lease(ns, 1, clock.instant());
        String kyma = nameOn(two, ns, "calm", 0);
        kyma(ns, kyma, "0");
        component(ns, kyma + "-a", kyma, "0");
        // what a tenant may write: the replica stops working on the component at once (it answers the drain)
        admin.resources(HelmComponent.class)
                .inNamespace(ns)
                .withName(kyma + "-a")
                .edit(c -> {
                    c.getMetadata().getLabels().put(Labels.SHARD_DRAIN, ShardDrain.REQUESTED);
                    return c;
                });
        answer(ns, HelmComponent.class, kyma + "-a");
        awaitCached(ns, HelmComponent.class, kyma + "-a", "0", ShardDrain.DRAINED);
        ShardMover mover = mover(two, ns, clock, () -> true, registry);

        mover.rebalanceOnce();
        assertThat(drain(ns, HelmComponent.class, kyma + "-a"))
                .as("seen once: it may be a hand-over just begun")
                .isEqualTo(ShardDrain.DRAINED);
        mover.rebalanceOnce();
        assertThat(drain(ns, HelmComponent.class, kyma + "-a"))
                .as("seen twice with no hand-over of its Kyma")
                .isNull();
        assertThat(shardOf(ns, HelmComponent.class, kyma + "-a")).isEqualTo("0");
        assertThat(drain(ns, Kyma.class, kyma)).isNull();
    }

    @Test
    void drainsWrittenByHandOnObjectsAtHomeDoNotHoldBackAHandOver() {
        String ns = "shard-drains-by-hand";
        Namespaces.apply(admin, ns);
        MutableClock clock = new MutableClock(Instant.now());
        Shards two = new Shards(2, 0);
        lease(ns, 0, clock.instant());
        lease(ns, 1, clock.instant());
        // more than the hand-overs allowed at once and than a look takes the next step of (so the look reads the
        // drains twice, to share its batch between namespaces), each on its own shard; no replica answers them here
        List<String> home = IntStream.range(0, 3000)
                .mapToObj(i -> "home-" + i)
                .filter(n -> two.of(ns, n) == 0)
                .limit(ShardRebalancer.FINISH_BATCH + 20)
                .toList();
        for (String name : home) {
            Kyma kyma = new Kyma();
            kyma.setMetadata(new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(ns)
                    .withLabels(Map.of(Labels.SHARD, "0", Labels.SHARD_DRAIN, ShardDrain.REQUESTED))
                    .build());
            kyma.setSpec(new KymaSpec());
            kyma.getSpec().setModules(List.of(new Module("istio", null)));
            admin.resource(kyma).create();
        }
        String away = nameOn(two, ns, "away", 1);
        kyma(ns, away, "0");
        awaitCached(ns, Kyma.class, away, "0", null);
        awaitCached(ns, Kyma.class, home.get(home.size() - 1), "0", ShardDrain.REQUESTED);

        mover(two, ns, clock, () -> true, new SimpleMeterRegistry()).rebalanceOnce();
        assertThat(drain(ns, Kyma.class, away))
                .as("a real hand-over is started")
                .isEqualTo(ShardDrain.REQUESTED);
    }

    /** A mover of {@code shards} for the objects and Leases of {@code ns}, counting into {@code registry}. */
    private static ShardMover mover(
            Shards shards, String ns, MutableClock clock, BooleanSupplier leading, SimpleMeterRegistry registry) {
        return new ShardMover(
                admin,
                shards,
                PREFIX,
                ns,
                Optional.of(ns),
                clock,
                leading,
                r -> registry.counter("moved", "resource", r),
                r -> registry.counter("drains", "resource", r));
    }

    /**
     * Until the API server's watch cache shows the object with these labels: it lags the write a little, and the
     * mover reads it. The cache applies a kind's writes in order, so once it shows an object's last write it shows
     * every earlier write of that kind.
     */
    private static <R extends HasMetadata> void awaitCached(
            String ns, Class<R> kind, String name, String shard, String drain) {
        await().alias(name + " in the watch cache")
                .atMost(HangCatcher.STEP)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    List<R> cached = admin.resources(kind)
                            .inNamespace(ns)
                            .withField("metadata.name", name)
                            .list(new ListOptionsBuilder()
                                    .withResourceVersion("0")
                                    .build())
                            .getItems();
                    return !cached.isEmpty()
                            && shard.equals(
                                    cached.get(0).getMetadata().getLabels().get(Labels.SHARD))
                            && Objects.equals(
                                    drain,
                                    cached.get(0).getMetadata().getLabels().get(Labels.SHARD_DRAIN));
                });
    }

    @Test
    void aDeadShardTakenByAReplicaSinceItsLeaseWasReadKeepsItsObjects() {
        String ns = "shard-taken";
        Namespaces.apply(admin, ns);
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        lease(ns, 0, clock.instant());
        lease(ns, 1, clock.instant().minusSeconds(30)); // ran out
        kyma(ns, "on-one", "1");
        ShardMover mover = mover(new Shards(2, 0), ns, clock, () -> true, registry);
        Lease seen =
                admin.leases().inNamespace(ns).withName(PREFIX + "-shard-1").get();

        // a new replica of shard 1 takes its Lease after the mover read it as run out
        lease(ns, 1, clock.instant());
        assertThat(mover.claim(1, seen))
                .as("the Lease changed since it was read")
                .isEmpty();
        assertThat(mover.moveOnce()).as("shard 1 is led again").isZero();
        assertThat(shardOf(ns, Kyma.class, "on-one")).isEqualTo("1");

        // while the mover holds a dead shard's Lease, no replica holds that shard
        clock.advance(Duration.ofSeconds(30));
        lease(ns, 0, clock.instant());
        ShardMover.Claim claim = mover.claim(
                        1,
                        admin.leases()
                                .inNamespace(ns)
                                .withName(PREFIX + "-shard-1")
                                .get())
                .orElseThrow();
        Map<Integer, Lease> leases = Map.of(
                1, admin.leases().inNamespace(ns).withName(PREFIX + "-shard-1").get());
        assertThat(ShardLiveness.held(leases, clock.instant())).isEmpty();
        assertThat(ShardLiveness.dead(leases, clock.instant())).isEmpty();
        claim.release();
        assertThat(admin.leases()
                        .inNamespace(ns)
                        .withName(PREFIX + "-shard-1")
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .isEmpty();
    }

    @Test
    void aShardWithNoLeaseCountsAsDownAfterALeasesDurationAndALabelNoInformerSelectsMovesAtOnce() {
        String ns = "shard-never-up";
        Namespaces.apply(admin, ns);
        MutableClock clock = new MutableClock(Instant.now());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        lease(ns, 0, clock.instant());
        kyma(ns, "on-one", "1"); // shard 1 of 2 never took its Lease
        kyma(ns, "zero-padded", "01"); // written by hand: no informer selects shard=01
        ShardMover mover = mover(new Shards(2, 0), ns, clock, () -> true, registry);
        awaitCached(ns, Kyma.class, "zero-padded", "01", null);

        assertThat(mover.moveOnce())
                .as("'01' names no shard; shard 1 may still be starting")
                .isEqualTo(1);
        assertThat(shardOf(ns, Kyma.class, "zero-padded")).isEqualTo("0");
        assertThat(shardOf(ns, Kyma.class, "on-one")).isEqualTo("1");

        clock.advance(ShardLiveness.ABSENT_BOUND.plusSeconds(1));
        lease(ns, 0, clock.instant());
        assertThat(mover.moveOnce())
                .as("shard 1 has had no Lease for longer than a Lease lasts")
                .isEqualTo(1);
        assertThat(shardOf(ns, Kyma.class, "on-one")).isEqualTo("0");
        assertThat(admin.leases()
                        .inNamespace(ns)
                        .withName(PREFIX + "-shard-1")
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .as("held by the mover while it moved, then given up, so that shard 1's replica can take it")
                .isEmpty();
    }

    /** The first name of {@code prefix}-i that belongs on {@code shard}. */
    private static String nameOn(Shards shards, String ns, String prefix, int shard) {
        return IntStream.range(0, 1000)
                .mapToObj(i -> prefix + "-" + i)
                .filter(n -> shards.of(ns, n) == shard)
                .findFirst()
                .orElseThrow();
    }

    /** What the replica of the object's shard does in its next reconcile of it. */
    private static <R extends HasMetadata> void answer(String ns, Class<R> kind, String name) {
        R object = admin.resources(kind).inNamespace(ns).withName(name).get();
        assertThat(ShardDrain.answer(object, () -> admin)).isEqualTo(ShardDrain.Answer.STOPPED);
        assertThat(drain(ns, kind, name)).isEqualTo(ShardDrain.DRAINED);
    }

    private static <R extends HasMetadata> String drain(String ns, Class<R> kind, String name) {
        return admin.resources(kind)
                .inNamespace(ns)
                .withName(name)
                .get()
                .getMetadata()
                .getLabels()
                .get(Labels.SHARD_DRAIN);
    }

    private static void lease(int shard, Instant renewed) {
        lease(NS, shard, renewed);
    }

    private static void lease(String ns, int shard, Instant renewed) {
        Lease lease = new LeaseBuilder()
                .withNewMetadata()
                .withName(PREFIX + "-shard-" + shard)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("replica-" + shard)
                .withLeaseDurationSeconds(15)
                .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC))
                .endSpec()
                .build();
        admin.resource(lease).forceConflicts().serverSideApply();
    }

    private static void kyma(String name, String shard) {
        kyma(NS, name, shard);
    }

    private static void kyma(String ns, String name, String shard) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(ns)
                .withLabels(Map.of(Labels.SHARD, shard))
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(List.of(new Module("istio", null)));
        admin.resource(kyma).create();
    }

    private static void component(String name, String kyma, String shard) {
        component(NS, name, kyma, shard);
    }

    private static void component(String ns, String name, String kyma, String shard) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(ns)
                .withLabels(Map.of(Labels.SHARD, shard, Labels.KYMA, kyma))
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule("istio");
        component.getSpec().setKyma(kyma);
        admin.resource(component).create();
    }

    private static <R extends HasMetadata> String shardOf(Class<R> kind, String name) {
        return shardOf(NS, kind, name);
    }

    private static <R extends HasMetadata> String shardOf(String ns, Class<R> kind, String name) {
        return admin.resources(kind)
                .inNamespace(ns)
                .withName(name)
                .get()
                .getMetadata()
                .getLabels()
                .get(Labels.SHARD);
    }
}
