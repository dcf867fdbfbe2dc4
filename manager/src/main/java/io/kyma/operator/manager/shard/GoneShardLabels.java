package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;

/**
 * The shard labels beyond {@code --shards} that objects still carry, for the {@link ShardMover} to move off: those of
 * shards no replica leads (no Lease, or one that ran out), and those that are not a shard number at all. A look
 * lists every kind, so the mover does not look at every check.
 */
final class GoneShardLabels {
    private static final Logger LOG = LoggerFactory.getLogger(GoneShardLabels.class);
    /**
     * The most labels that no fleet can have one look gathers; the rest wait for the next look. Only a hand can have
     * written them, and they cannot grow the set unbounded.
     */
    static final int OTHERS = 64;

    private final KubernetesClient client;
    private final Shards shards;
    private final Optional<String> namespace;
    private final ShardLeases leases;
    private final Clock clock;

    /** @param namespace the namespace the mover moves objects in; empty for all */
    GoneShardLabels(
            KubernetesClient client, Shards shards, Optional<String> namespace, ShardLeases leases, Clock clock) {
        this.client = client;
        this.shards = shards;
        this.namespace = namespace;
        this.leases = leases;
        this.clock = clock;
    }

    /**
     * Labels of shards beyond {@code --shards} that objects still carry and that no replica leads: no Lease, or one
     * that ran out; and labels that are not a shard number at all. Each with its shard's Lease as read, or null.
     */
    Map<String, Lease> find() {
        String[] existing = new String[shards.count()];
        for (int shard = 0; shard < shards.count(); shard++) {
            existing[shard] = Integer.toString(shard);
        }
        Set<String> labels = new TreeSet<>();
        Set<String> others = new TreeSet<>();
        for (Class<? extends HasMetadata> kind : List.of(HelmComponent.class, Run.class, Kyma.class)) {
            labelsBeyond(kind, existing, labels, others);
        }
        labels.addAll(others);
        Map<String, Lease> gone = new TreeMap<>();
        for (String label : labels) {
            if (Shards.number(label).isEmpty()) {
                gone.put(label, null);
                continue;
            }
            int shard = Shards.number(label).getAsInt();
            Lease lease = leases.read(shard);
            if (lease == null
                    || !ShardLiveness.dead(Map.of(shard, lease), clock.instant())
                            .isEmpty()) {
                gone.put(label, lease);
            } else {
                LOG.info(
                        "shard {} is beyond --shards {} but its Lease is held: its objects move once it runs out",
                        shard,
                        shards.count());
            }
        }
        return gone;
    }

    /**
     * Adds the shard labels of {@code kind} other than {@code existing}: those that could name a shard of a fleet
     * (below {@link Shards#MAX}: a shard of an earlier, larger {@code --shards}) to {@code shards}, all of them; any
     * other, which only a hand can have written, to {@code others}, up to {@link #OTHERS}, so that such labels cannot
     * crowd out the shards of a lowered count.
     */
    private <R extends HasMetadata> void labelsBeyond(
            Class<R> kind, String[] existing, Set<String> shards, Set<String> others) {
        // From the API server's watch cache (resourceVersion 0), which answers a selective list from memory: paged
        // from etcd, the API server would read every object to fill a page of the few that match. What it returns
        // is what waits to be moved, which each look moves; it is read an object at a time, since anyone may write
        // the label on objects of any size.
        String selector = Labels.SHARD
                + (existing.length == 0 ? "" : "," + Labels.SHARD + " notin (" + String.join(",", existing) + ")");
        StreamedList.each(client, kind, namespace, selector, StreamedList.Source.WATCH_CACHE, object -> {
            String label = object.getMetadata().getLabels().get(Labels.SHARD);
            if (fleetShard(label)) {
                shards.add(label);
            } else if (others.size() < OTHERS) {
                others.add(label); // the rest at the next look: labels written by hand cannot grow the set unbounded
            }
            return true;
        });
    }

    /** Whether a label names a shard that some fleet of at most {@link Shards#MAX} shards can have. */
    static boolean fleetShard(String label) {
        return Shards.number(label).isPresent() && Shards.number(label).getAsInt() < Shards.MAX;
    }
}
