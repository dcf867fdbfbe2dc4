package io.kyma.operator.manager.shard;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.api.Labels;
import io.micrometer.core.instrument.Counter;

/**
 * Moves the objects that carry a shard label no replica holds to the live shards, for the {@link ShardMover}: each
 * object to the live shard it hashes to ({@link Shards#moveTo}), by a write that fails if the object has left that
 * label meanwhile. No handshake is needed: no replica of a dead shard reconciles.
 */
final class Relabeler {
    private static final Logger LOG = LoggerFactory.getLogger(Relabeler.class);
    private static final String SHARD_PATH = "/metadata/labels/" + Labels.SHARD.replace("/", "~1");
    private static final String DRAIN_PATH = "/metadata/labels/" + Labels.SHARD_DRAIN.replace("/", "~1");

    private final KubernetesClient client;
    private final Optional<String> namespace;
    private final Function<String, Counter> moved;

    /**
     * @param namespace the namespace to move objects in; empty for all
     * @param moved the counter of objects moved, by resource
     */
    Relabeler(KubernetesClient client, Optional<String> namespace, Function<String, Counter> moved) {
        this.client = client;
        this.namespace = namespace;
        this.moved = moved;
    }

    /**
     * Moves the objects of {@code kind} labelled for shard {@code from} to the {@code live} shards, while
     * {@code held} says the mover may; the number moved.
     */
    <R extends HasMetadata> int move(
            Class<R> kind, String resource, String from, List<Integer> live, BooleanSupplier held) {
        int[] count = {0};
        // Every object of a dead shard: from etcd, a page at a time. A label no fleet has (written by hand, on a few
        // objects): from the watch cache, which answers such a selective list from memory, where paged from etcd it
        // would read the kind's whole collection to fill each page.
        StreamedList.Source source =
                GoneShardLabels.fleetShard(from) ? StreamedList.Source.PAGES : StreamedList.Source.WATCH_CACHE;
        StreamedList.each(client, kind, namespace, Labels.SHARD + "=" + from, source, object -> {
            if (!held.getAsBoolean()) {
                return false;
            }
            if (moveOne(kind, resource, object, from, live)) {
                count[0]++;
            }
            return true;
        });
        if (count[0] > 0) {
            LOG.info("moved {} {} of shard {}, which is down or gone, to shards {}", count[0], resource, from, live);
        }
        return count[0];
    }

    private <R extends HasMetadata> boolean moveOne(
            Class<R> kind, String resource, R object, String from, List<Integer> live) {
        String ns = object.getMetadata().getNamespace();
        int to = Shards.moveTo(ns, ShardAssigner.ownerName(object), live);
        String patch = patch(from, to, ShardDrain.state(object).isPresent());
        try {
            // the object in hand: the patch goes out without a read of the object first
            client.resources(kind).resource(object).patch(PatchContext.of(PatchType.JSON), patch);
            moved.apply(resource).increment();
            return true;
        } catch (KubernetesClientException e) {
            LOG.debug(
                    "{} {}/{} not moved: {}", resource, ns, object.getMetadata().getName(), e.getMessage());
            return false;
        }
    }

    /**
     * The JSON patch that moves an object from shard {@code from} to shard {@code to}, only if it is still on
     * {@code from}: a test-and-replace patch fails on any other value. A hand-over the dead shard was asked for
     * ({@code draining}) ends with the move.
     */
    static String patch(String from, int to, boolean draining) {
        return "[{\"op\":\"test\",\"path\":\"" + SHARD_PATH + "\",\"value\":\"" + from
                + "\"},{\"op\":\"replace\",\"path\":\"" + SHARD_PATH + "\",\"value\":\"" + to + "\"}"
                + (draining ? ",{\"op\":\"remove\",\"path\":\"" + DRAIN_PATH + "\"}" : "")
                + "]";
    }
}
