package io.kyma.operator.manager.shard;

import java.nio.charset.StandardCharsets;

import io.kyma.operator.api.Labels;

/**
 * Which replica reconciles what, when the operator runs as {@code count} shards: each Kyma and Run belongs to the
 * shard its namespace and name hash to, each HelmComponent to its Kyma's, so that a Kyma and its components are
 * always reconciled by the same replica. The shard is written on the object as the label {@link Labels#SHARD}, and
 * each replica's informers select only its own.
 *
 * @param count how many shards there are (1: not sharded)
 * @param id this replica's shard, from 0 to {@code count - 1}
 */
public record Shards(int count, int id) {
    public static final Shards NONE = new Shards(1, 0);

    public Shards {
        if (count < 1 || id < 0 || id >= count) {
            throw new IllegalArgumentException("shard " + id + " of " + count + " does not exist");
        }
    }

    public boolean sharded() {
        return count > 1;
    }

    /** The label selector of this replica's objects. */
    public String selector() {
        return Labels.SHARD + "=" + id;
    }

    /** The label selector of objects no replica owns yet. */
    public static String unassigned() {
        return "!" + Labels.SHARD;
    }

    /** The shard of the object (a Kyma or a Run) named {@code name} in {@code namespace}. */
    public int of(String namespace, String name) {
        return (int) (Integer.toUnsignedLong(fnv(namespace + "/" + name)) % count);
    }

    /**
     * Where an object of a shard that is down goes: of the {@code live} shards, the one that scores highest for it
     * (rendezvous hashing), so that the objects of a dead shard spread over the live ones and nothing else moves.
     */
    public static int moveTo(String namespace, String name, java.util.Collection<Integer> live) {
        int best = -1;
        long bestScore = -1;
        for (int shard : live) {
            long score = Integer.toUnsignedLong(fnv(namespace + "/" + name + "#" + shard));
            if (score > bestScore || (score == bestScore && shard < best)) {
                best = shard;
                bestScore = score;
            }
        }
        if (best < 0) {
            throw new IllegalArgumentException("no live shard to move " + namespace + "/" + name + " to");
        }
        return best;
    }

    /** FNV-1a, 32 bits: stable across JVMs and releases, unlike String.hashCode's contract. */
    private static int fnv(String text) {
        int hash = 0x811c9dc5;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }
}
