package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.shard.ShardLiveness;
import io.kyma.operator.manager.shard.ShardMover;
import io.kyma.operator.manager.shard.Shards;
import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.HangCatcher;

/**
 * Three operator processes split the standard load as three shards, each behind a proxy that records the writer of
 * every write: every Kyma, HelmComponent and Run is written by the process of its shard only, components carry their
 * Kyma's shard, every component walks its states in order and every Run's job is started once; and when one shard's
 * process is killed, its objects move to the live shards once its Lease has run out, never before, and are written
 * from then on by their new shard only (one that the killed process had brought to its end is moved without a further
 * write); how long the move took is reported in every run and bounded at {@code make chaos}'s scale. When
 * the count is raised from two to three, replica by replica, the objects the new shard wins are handed to it, and no
 * object is ever written by two processes at once.
 */
class ShardedReplicasIT {
    private static final ChaosLoad LOAD = ChaosLoad.full()
            ? ChaosLoad.standard(Duration.ofSeconds(1), 20)
            : ChaosLoad.standard(Duration.ofMillis(300), 5);
    private static final int SHARDS = 3;
    /**
     * The Lease of a replica the test kills and waits out: the default (15 s, a renew deadline of 10 s), so that
     * waiting it out takes what it takes in a deployment.
     */
    private static final Duration LEASE = Duration.ofSeconds(15);
    /**
     * The Lease timing of a replica that must lead until the end of its test. A leader that cannot renew within its
     * renew deadline exits, and on a busy two-core machine shared by three operators, a test JVM and the control plane
     * a renewal has taken longer than the default 10 s (a shorter Lease, 8 s with a renew deadline of 5 s, lost a
     * shard's leader more often still). A shard whose leader exits has its objects moved, which is not what these
     * tests are about, so these replicas get a renew deadline such a machine meets. Each Lease carries its own
     * duration, which is what the other replicas and the mover wait for.
     */
    private static final List<String> LASTING_LEASE =
            List.of("--leader-election-lease-duration", "60s", "--leader-election-renew-deadline", "45s");

    /** Time for the mover's label writes of one shard's objects of the load. */
    private static final Duration MOVE_WRITES = Duration.ofSeconds(10);
    /** A write to one object: the resource, its name, and whether it is the status. */
    private static final Pattern OBJECT = Pattern.compile("/(kymas|helmcomponents|runs)/([^/?]+)(/status)?");

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    @Test
    void eachObjectIsWrittenByTheProcessOfItsShardOnly() {
        List<Replica> replicas = new ArrayList<>();
        try (Trial trial = new Trial(ENV.admin(), "sharded", LOAD)) {
            start(replicas, trial, shard -> List.of());
            trial.createLoad();
            trial.awaitSettled();

            assertThat(trial.outcome(ENV.jobs(), proxies(replicas)).violations("sharded", LOAD))
                    .isEmpty();
            Map<String, String> shardOf = shards(trial);
            assertThat(new TreeSet<>(shardOf.values()))
                    .as("the load spreads over the shards")
                    .hasSize(SHARDS);
            Map<String, List<Writers.Write>> writes = writesByObject(replicas);
            assertThat(writes.keySet())
                    .as("every object had its status written")
                    .containsAll(shardOf.keySet());
            writes.forEach((object, all) -> assertThat(all)
                    .as(object + " written by")
                    .extracting(Writers.Write::writer)
                    .allSatisfy(w -> assertThat(w).startsWith("shard-" + shardOf.get(object) + "#")));
        } finally {
            replicas.forEach(Replica::close);
        }
    }

    @Test
    void aKilledShardsObjectsMoveToTheLiveShardsOnceItsLeaseRanOut() {
        List<Replica> replicas = new ArrayList<>();
        try (Trial trial = new Trial(ENV.admin(), "shard-down", LOAD)) {
            List<String> elect = electing(trial);
            // shard 1's replica is killed and its Lease waited out; shards 0 and 2 must lead to the end
            start(replicas, trial, shard -> shard == 1 ? elect : lasting(elect));
            KubernetesClient admin = ENV.admin();
            // the default Lease of an operator that watches one namespace names it
            String lease = "kyma-operator-leader-" + trial.namespace() + "-shard-";
            trial.until(() -> IntStream.range(0, SHARDS)
                    .allMatch(i -> admin.leases()
                                    .inNamespace(trial.namespace())
                                    .withName(lease + i)
                                    .get()
                            != null));
            trial.createLoad();
            trial.until(() -> !labelled(admin, trial.namespace(), "1").isEmpty());
            trial.at(Duration.ofSeconds(3));
            Replica killed = replicas.get(1);
            killed.kill();
            Instant killedAt = Instant.now();
            List<String> onKilledShard = names(labelled(admin, trial.namespace(), "1"));

            // The Lease lasts its duration after its last renewal; then the leader of shard 0 moves shard 1's
            // objects. The Lease as its holder last renewed it is followed until the mover takes it over for the
            // move (and, once done, gives it up with an empty holder): the killed process cannot renew it any more,
            // though a renewal it sent just before the kill may still land.
            AtomicReference<Lease> lastHeld = new AtomicReference<>();
            AtomicReference<Instant> firstMoved = new AtomicReference<>();
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        Lease now = admin.leases()
                                .inNamespace(trial.namespace())
                                .withName(lease + 1)
                                .get();
                        if (now != null
                                && now.getSpec() != null
                                && now.getSpec().getRenewTime() != null
                                && held(now.getSpec().getHolderIdentity())) {
                            lastHeld.set(now);
                        }
                        List<String> left = names(labelled(admin, trial.namespace(), "1"));
                        if (!left.containsAll(onKilledShard)) {
                            firstMoved.compareAndSet(null, Instant.now());
                        }
                        assertThat(left)
                                .as(() -> "objects still on the killed shard; Leases: "
                                        + leases(admin, trial.namespace(), lease) + "; replicas: "
                                        + replicas.stream()
                                                .map(r -> r.name()
                                                        + (r.process().exited().isPresent()
                                                                ? " ended "
                                                                        + r.process()
                                                                                .exited()
                                                                                .get()
                                                                : r.leading() ? " leading" : " not leading"))
                                                .toList())
                                .isEmpty();
                    });
            Instant allMoved = Instant.now();
            assertThat(lastHeld.get())
                    .as("shard 1's Lease as its holder left it")
                    .isNotNull();
            Instant ranOut = lastHeld.get()
                    .getSpec()
                    .getRenewTime()
                    .toInstant()
                    .plusSeconds(lastHeld.get().getSpec().getLeaseDurationSeconds());
            // what the mover may not do however fast or slow the machine: move before the Lease ran out (its own
            // view adds a margin for clocks; this machine has one clock, and the first move is seen after it happened)
            assertThat(firstMoved.get())
                    .as("the first object seen moved off the killed shard, against the time its Lease ran out")
                    .isAfter(ranOut);
            // How soon the objects moved depends on how busy the machine is: measured and reported in every run,
            // bounded only at make chaos's scale, which runs one scenario at a time.
            Duration moved = Duration.between(killedAt, allMoved);
            String report = String.format(
                    Locale.ROOT,
                    "%d objects of the killed shard moved: the first seen %.1f s, the last %.1f s after the kill; its"
                            + " Lease ran out %.1f s after the kill, and the last object moved %.1f s after that",
                    onKilledShard.size(),
                    Duration.between(killedAt, firstMoved.get()).toMillis() / 1000.0,
                    moved.toMillis() / 1000.0,
                    Duration.between(killedAt, ranOut).toMillis() / 1000.0,
                    Duration.between(ranOut, allMoved).toMillis() / 1000.0);
            System.out.println(trial.namespace() + ": " + report);
            ChaosReport.writeLines(trial.namespace() + "-move.txt", List.of(report));
            if (ChaosLoad.full()) {
                // the Lease's time from its last renewal (before the kill), the margin, one look of the mover, and
                // the label writes, which wait their turn in shard 0's client limiter behind its own reconciles
                Duration bound =
                        LEASE.plus(ShardLiveness.MARGIN).plus(ShardMover.CHECK).plus(MOVE_WRITES);
                assertThat(moved)
                        .as("moved within the Lease's time and one look of the mover")
                        .isLessThan(bound);
            }
            trial.awaitSettled();

            assertThat(trial.outcome(ENV.jobs(), proxies(replicas)).violations("shard-down", LOAD))
                    .isEmpty();
            Map<String, String> shardOf = shards(trial);
            assertThat(shardOf.values()).as("nothing left on the killed shard").doesNotContain("1");
            writesByObject(replicas).forEach((object, all) -> {
                List<Writers.Write> ordered = all.stream()
                        .sorted(Comparator.comparing(Writers.Write::start))
                        .toList();
                // the writers in the order they wrote, a run of writes by one counted once: shard-1, then its new
                // shard, then shard-1 again shows as three
                List<String> writers = new ArrayList<>();
                for (Writers.Write write : ordered) {
                    String writer = write.writer().substring(0, write.writer().indexOf('#'));
                    if (writers.isEmpty() || !writers.get(writers.size() - 1).equals(writer)) {
                        writers.add(writer);
                    }
                }
                String owner = "shard-" + shardOf.get(object);
                // An object goes from shard to shard one way only: the killed shard's writes first, then its new
                // shard's, never the other way round. Before the kill a Kyma created while its own shard was still
                // starting went to a live shard and was handed over to its own, so that shard may come first too.
                // One that the killed shard had brought to its end (the outcome above says every object reached
                // it) is moved without another write: the label's move is not a status write, and the new shard has
                // nothing left to write. Its last write may have been in flight at the kill, sent before and
                // answered after it, so its time says nothing.
                assertThat(writers).as(object + " writers in order").doesNotHaveDuplicates();
                assertThat(writers.get(writers.size() - 1))
                        .as(object + " last writer")
                        .isIn(owner, "shard-1");
            });
        } finally {
            replicas.forEach(Replica::close);
        }
    }

    /** Whether a Lease's holder is a replica: not the mover, nor the empty holder the mover leaves when done. */
    private static boolean held(String holder) {
        return holder != null && !holder.isBlank() && !holder.startsWith(ShardLiveness.MOVER_PREFIX);
    }

    @Test
    void raisingTheShardCountHandsTheNewShardItsShareWithNoTwoWritersAtOnce() {
        // a slower walk, so that the count is raised while the components are still on their way
        ChaosLoad load = ChaosLoad.standard(Duration.ofSeconds(1), 30);
        Map<String, Replica> replicas = new TreeMap<>();
        try (Trial trial = new Trial(ENV.admin(), "shard-up", load)) {
            KubernetesClient admin = ENV.admin();
            List<String> elect = electing(trial);
            // the two replicas are killed in the roll and their Leases waited out; the three must lead to the end
            for (int shard = 0; shard < 2; shard++) {
                replicas.put("two-" + shard, replica(load, trial, "two-" + shard, 2, shard, elect));
            }
            trial.until(() -> replicas.values().stream().allMatch(Replica::leading));
            trial.createLoad();
            trial.until(() -> admin.resources(Kyma.class).inNamespace(trial.namespace()).list().getItems().stream()
                    .allMatch(k -> k.getMetadata().getLabels().containsKey(Labels.SHARD)));

            // rolled as a StatefulSet rolls: the new shard first, then the others from the highest down
            replicas.put("three-2", replica(load, trial, "three-2", 3, 2, lasting(elect)));
            for (int shard = 1; shard >= 0; shard--) {
                Replica next = replica(load, trial, "three-" + shard, 3, shard, lasting(elect));
                replicas.put("three-" + shard, next);
                replicas.get("two-" + shard).kill();
                trial.until(next::leading);
            }
            Shards three = new Shards(3, 0);
            trial.until(() -> onOwnShards(admin, trial.namespace(), three));
            trial.awaitSettled();

            List<Replica> all = List.copyOf(replicas.values());
            assertThat(trial.outcome(ENV.jobs(), proxies(all)).violations("shard-up", load))
                    .isEmpty();
            Map<String, String> shardOf = shards(trial);
            assertThat(new TreeSet<>(shardOf.values()))
                    .as("the new shard has its share")
                    .contains("2");
            assertThat(replicas.get("three-0").process().sum("kyma_operator_shard_drains_total")
                            + replicas.get("three-1").process().sum("kyma_operator_shard_drains_total"))
                    .as("objects were handed over between live shards")
                    .isPositive();
            writesByObject(all)
                    .forEach(
                            (object, writes) -> assertThat(Writers.judge(writes).passed())
                                    .as(object + ": one writer at a time, each once: "
                                            + Writers.judge(writes).terms())
                                    .isTrue());
        } finally {
            replicas.values().forEach(Replica::close);
        }
    }

    private static Replica replica(
            ChaosLoad load, Trial trial, String name, int shards, int shard, List<String> extra) {
        List<String> flags = new ArrayList<>(load.operatorFlags(ENV.jobs().url()));
        flags.addAll(List.of("--shards", Integer.toString(shards), "--shard-id", Integer.toString(shard)));
        flags.addAll(extra);
        return Replica.start(name, trial.namespace(), flags);
    }

    /** Whether every Kyma and Run sits on its own shard, each component on its Kyma's, and no hand-over is open. */
    private static boolean onOwnShards(KubernetesClient admin, String namespace, Shards shards) {
        Map<String, String> kymas = new TreeMap<>();
        for (Class<? extends HasMetadata> kind : List.of(Kyma.class, Run.class)) {
            for (HasMetadata root :
                    admin.resources(kind).inNamespace(namespace).list().getItems()) {
                Map<String, String> labels = root.getMetadata().getLabels();
                String own =
                        Integer.toString(shards.of(namespace, root.getMetadata().getName()));
                if (!own.equals(labels.get(Labels.SHARD)) || labels.containsKey(Labels.SHARD_DRAIN)) {
                    return false;
                }
                kymas.put(root.getMetadata().getName(), own);
            }
        }
        return admin.resources(HelmComponent.class).inNamespace(namespace).list().getItems().stream()
                .allMatch(c -> !c.getMetadata().getLabels().containsKey(Labels.SHARD_DRAIN)
                        && c.getMetadata()
                                .getLabels()
                                .get(Labels.SHARD)
                                .equals(kymas.get(c.getMetadata().getLabels().get(Labels.KYMA))));
    }

    /** Starts shard-0 to shard-2, each with the load's flags and {@code extra} of its shard. */
    private static void start(List<Replica> replicas, Trial trial, IntFunction<List<String>> extra) {
        for (int shard = 0; shard < SHARDS; shard++) {
            replicas.add(replica(LOAD, trial, "shard-" + shard, SHARDS, shard, extra.apply(shard)));
        }
    }

    /** {@code elect} with {@link #LASTING_LEASE}. */
    private static List<String> lasting(List<String> elect) {
        List<String> flags = new ArrayList<>(elect);
        flags.addAll(LASTING_LEASE);
        return flags;
    }

    /** "Kyma/k1", "HelmComponent/k1-istio", ... */
    private static List<String> names(List<HasMetadata> objects) {
        return objects.stream()
                .map(o -> o.getKind() + "/" + o.getMetadata().getName())
                .toList();
    }

    private static List<ApiFaultProxy> proxies(List<Replica> replicas) {
        return replicas.stream().map(Replica::proxy).toList();
    }

    /** Each shard's Lease as holder, renew time and duration, for a failure's message. */
    private static String leases(KubernetesClient admin, String namespace, String prefix) {
        List<String> all = new ArrayList<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            Lease lease = admin.leases()
                    .inNamespace(namespace)
                    .withName(prefix + shard)
                    .get();
            all.add(shard + ": "
                    + (lease == null || lease.getSpec() == null
                            ? "none"
                            : lease.getSpec().getHolderIdentity() + " renewed "
                                    + lease.getSpec().getRenewTime() + " for "
                                    + lease.getSpec().getLeaseDurationSeconds() + " s"));
        }
        return all.toString();
    }

    /**
     * The flags of a replica that elects its shard's leader with the Leases in the trial's namespace, logging at info
     * (its moves and hand-overs), with the default Lease timing.
     */
    private static List<String> electing(Trial trial) {
        return List.of("--leader-elect", "--leader-election-namespace", trial.namespace(), "--log-level", "info");
    }

    private static List<HasMetadata> labelled(KubernetesClient admin, String namespace, String shard) {
        List<HasMetadata> found = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : List.of(Kyma.class, Run.class, HelmComponent.class)) {
            found.addAll(admin.resources(kind)
                    .inNamespace(namespace)
                    .withLabel(Labels.SHARD, shard)
                    .list()
                    .getItems());
        }
        return found;
    }

    /** Each object's shard label, checking that every object has one and each component has its Kyma's. */
    private static Map<String, String> shards(Trial trial) {
        Map<String, String> shardOf = new TreeMap<>();
        KubernetesClient admin = ENV.admin();
        admin.resources(Kyma.class)
                .inNamespace(trial.namespace())
                .list()
                .getItems()
                .forEach(k -> shardOf.put(
                        "kymas/" + k.getMetadata().getName(),
                        k.getMetadata().getLabels().get(Labels.SHARD)));
        admin.resources(Run.class)
                .inNamespace(trial.namespace())
                .list()
                .getItems()
                .forEach(r -> shardOf.put(
                        "runs/" + r.getMetadata().getName(),
                        r.getMetadata().getLabels().get(Labels.SHARD)));
        for (HelmComponent c : admin.resources(HelmComponent.class)
                .inNamespace(trial.namespace())
                .list()
                .getItems()) {
            String shard = c.getMetadata().getLabels().get(Labels.SHARD);
            assertThat(shard)
                    .as(c.getMetadata().getName() + " carries its Kyma's shard")
                    .isEqualTo(
                            shardOf.get("kymas/" + c.getMetadata().getLabels().get(Labels.KYMA)));
            shardOf.put("helmcomponents/" + c.getMetadata().getName(), shard);
        }
        assertThat(shardOf.values()).as("every object has a shard").doesNotContainNull();
        return shardOf;
    }

    /**
     * The controllers' writes to each object: its status, and creating and deleting components. Patches of an object
     * itself are left out: the shard's label is written by whichever replica saw the object first, and moved by the
     * leader of the lowest live shard.
     */
    private static Map<String, List<Writers.Write>> writesByObject(List<Replica> replicas) {
        Map<String, List<Writers.Write>> writes = new TreeMap<>();
        for (Replica replica : replicas) {
            for (Writers.Write write : replica.writes()) {
                Matcher m = OBJECT.matcher(write.what());
                if (!m.find() || (write.what().startsWith("PATCH") && m.group(3) == null)) {
                    continue;
                }
                writes.computeIfAbsent(m.group(1) + "/" + m.group(2), k -> new ArrayList<>())
                        .add(write);
            }
        }
        return writes;
    }
}
