package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.limits.FairShares;
import io.micrometer.core.instrument.Counter;

/**
 * Hands the Kymas and Runs that sit on a live shard other than their own ({@link Shards#of}) to their own shard once
 * that shard's replica runs: after {@code --shards} was raised, or when a shard that was down is back. Each family
 * (a Kyma and its components, or a Run) goes through the {@link ShardDrain} handshake. At most {@link #IN_FLIGHT}
 * families are handed over at once, so that a new shard takes its share a batch at a time and the replicas' other
 * work goes on. The steps of each family's hand-over are {@link FamilyHandOver}'s; when to look for objects off their
 * shard, {@link ScanSchedule}'s.
 */
final class ShardRebalancer {
    private static final Logger LOG = LoggerFactory.getLogger(ShardRebalancer.class);
    /** Families being handed over at once. */
    static final int IN_FLIGHT = 50;
    /** Families whose next step one check takes at most. */
    static final int FINISH_BATCH = 2 * IN_FLIGHT;
    /**
     * How often to look for objects off their shard while the shards held change or the last look stopped at
     * {@link #IN_FLIGHT}: a read of every Kyma and Run, so not at every check.
     */
    static final Duration SCAN = Duration.ofSeconds(30);
    /**
     * How often to look otherwise. Objects leave their own shard when the shards held change (a shard back, or
     * added); between such changes only a label written by hand moves one, and its family follows it meanwhile.
     */
    static final Duration RESCAN = Duration.ofSeconds(300);

    private final KubernetesClient client;
    private final Shards shards;
    private final Optional<String> namespace;
    private final FamilyHandOver families;
    private final ScanSchedule scans;
    private final Random random = new Random();
    /** Components found with a drain no hand-over stands behind at the last check (a sample). */
    private Set<String> orphansSeen = Set.of();

    ShardRebalancer(
            KubernetesClient client,
            Shards shards,
            Optional<String> namespace,
            Clock clock,
            Function<String, Counter> drains,
            Function<String, Counter> moves) {
        this.client = client;
        this.shards = shards;
        this.namespace = namespace;
        this.families = new FamilyHandOver(client, shards, drains, moves);
        this.scans = new ScanSchedule(clock, SCAN, RESCAN);
    }

    /**
     * One step: finishes the hand-overs whose old shard has answered, and starts new ones when it is time to look.
     *
     * @param held the shards whose replica runs now (only they answer a drain or take objects)
     * @return the objects moved
     */
    int rebalance(Set<Integer> held) {
        int[] moved = {0};
        int[] draining = {0};
        // Only the protocol's values: anyone may write the label, and another value is no hand-over. Every check:
        // from the API server's watch cache, which answers such a selective list from memory, an object at a time.
        // Anyone may also write those values, on any number of objects: each check takes the next step of at most
        // FINISH_BATCH of them, shared fairly between namespaces and drawn at random within each, so that hand-overs
        // in progress are not held up behind labels written by hand. Only a family off its own shard is a hand-over
        // that counts against IN_FLIGHT: a drain written by hand on one at home ends without a move.
        Set<String> kymasDraining = new HashSet<>();
        String selector = Labels.SHARD_DRAIN + " in (" + ShardDrain.REQUESTED + "," + ShardDrain.DRAINED + ")";
        List<HasMetadata> batch = sample(List.of(Run.class, Kyma.class), selector, root -> root, root -> {
            if (root instanceof Kyma) {
                kymasDraining.add(root.getMetadata().getNamespace() + "/"
                        + root.getMetadata().getName());
            }
            if (!atHome(root)) {
                draining[0]++;
            }
        });
        for (HasMetadata root : batch) {
            moved[0] += families.finish(root, held);
        }
        withdrawOrphanDrains(selector, kymasDraining);
        if (draining[0] < IN_FLIGHT && scans.due(held)) {
            scans.started();
            boolean complete = true;
            for (Class<? extends HasMetadata> kind : List.of(Kyma.class, Run.class)) {
                if (draining[0] >= IN_FLIGHT) {
                    complete = false;
                    break;
                }
                // every object of the kind: paged from etcd, so that the look holds one page at a time
                complete &= StreamedList.each(
                        client,
                        kind,
                        namespace,
                        Labels.SHARD + "," + Labels.SHARD_DRAIN + " notin (" + ShardDrain.REQUESTED + ","
                                + ShardDrain.DRAINED + ")",
                        StreamedList.Source.PAGES,
                        root -> {
                            if (families.start(root, held)) {
                                draining[0]++;
                            }
                            return draining[0] < IN_FLIGHT;
                        });
            }
            scans.ended(held, complete);
        }
        return moved[0];
    }

    /**
     * A component's drain label is a step of its Kyma's hand-over; on a component whose Kyma is not being handed
     * over, someone wrote it by hand, and its replica would stop working on it for good. Such a drain is taken back
     * when the component is found so at two checks in a row (a list of Kymas and one of components may come from
     * watch caches a moment apart), at most {@link #FINISH_BATCH} per check, shared fairly between namespaces, and
     * written once the list is read.
     */
    private void withdrawOrphanDrains(String selector, Set<String> kymasDraining) {
        List<HasMetadata> again = new ArrayList<>();
        Function<HasMetadata, String> orphan = c -> {
            String owner = c.getMetadata().getLabels().get(Labels.KYMA);
            String ns = c.getMetadata().getNamespace();
            return owner != null && kymasDraining.contains(ns + "/" + owner)
                    ? null
                    : ns + "/" + c.getMetadata().getName();
        };
        List<String> sample = sample(List.of(HelmComponent.class), selector, orphan, c -> {
            String key = orphan.apply(c);
            if (key != null && orphansSeen.contains(key) && again.size() < FINISH_BATCH) {
                again.add(c);
            }
        });
        orphansSeen = Set.copyOf(sample);
        for (HasMetadata component : again) {
            String value = component.getMetadata().getLabels().get(Labels.SHARD_DRAIN);
            if (families.withdraw(component, value)) {
                LOG.info(
                        "HelmComponent {}/{}: took back the label {}={}, which no hand-over of its Kyma stands behind",
                        component.getMetadata().getNamespace(),
                        component.getMetadata().getName(),
                        Labels.SHARD_DRAIN,
                        value);
            }
        }
    }

    /**
     * At most {@link #FINISH_BATCH} of the objects of a selective list of the watch cache that {@code pick} keeps (it
     * returns null for the others), shared fairly between namespaces ({@link FairSample}): the list is read a second
     * time only when more than that many were kept. {@code seen} is called for every object of the first read.
     */
    private <T> List<T> sample(
            List<Class<? extends HasMetadata>> kinds,
            String selector,
            Function<HasMetadata, T> pick,
            Consumer<HasMetadata> seen) {
        Map<String, Integer> counts = new HashMap<>();
        List<T> first = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : kinds) {
            StreamedList.each(client, kind, namespace, selector, StreamedList.Source.WATCH_CACHE, object -> {
                seen.accept(object);
                T item = pick.apply(object);
                if (item != null) {
                    counts.merge(object.getMetadata().getNamespace(), 1, Integer::sum);
                    if (first.size() < FINISH_BATCH) {
                        first.add(item);
                    }
                }
                return true;
            });
        }
        if (counts.values().stream().mapToInt(Integer::intValue).sum() <= FINISH_BATCH) {
            return first;
        }
        FairSample<T> fair = new FairSample<>(FairShares.maxMin(counts, FINISH_BATCH, random), random);
        for (Class<? extends HasMetadata> kind : kinds) {
            StreamedList.each(client, kind, namespace, selector, StreamedList.Source.WATCH_CACHE, object -> {
                T item = pick.apply(object);
                if (item != null) {
                    fair.offer(object.getMetadata().getNamespace(), item);
                }
                return true;
            });
        }
        return fair.picked();
    }

    /** Whether the object's shard label names the shard it belongs on. */
    private boolean atHome(HasMetadata root) {
        OptionalInt on = Shards.number(ShardDrain.shard(root));
        return on.isPresent()
                && on.getAsInt()
                        == shards.of(
                                root.getMetadata().getNamespace(),
                                root.getMetadata().getName());
    }
}
