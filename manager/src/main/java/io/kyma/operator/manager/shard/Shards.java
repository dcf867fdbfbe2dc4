package io.kyma.operator.manager.shard;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import io.kyma.operator.api.Labels;

/**
 * Which replica reconciles what, when the operator runs as {@code count} shards: each Kyma and Run belongs to the
 * shard its namespace and name score highest with, each HelmComponent to its Kyma's, so that a Kyma and its components are
 * always reconciled by the same replica. The shard is written on the object as the label {@link Labels#SHARD}, and
 * each replica's informers select only its own.
 *
 * @param count how many shards there are (1: not sharded)
 * @param id this replica's shard, from 0 to {@code count - 1}
 */
public record Shards(int count, int id) {
    public static final Shards NONE = new Shards(1, 0);
    /** The most shards --shards accepts: each has a Lease and a replica; more would be a typo, not a fleet. */
    public static final int MAX = 64;

    public Shards {
        if (count < 1 || id < 0 || id >= count) {
            throw new IllegalArgumentException("shard " + id + " of " + count + " does not exist");
        }
    }

    public boolean sharded() {
        return count > 1;
    }

    /**
     * The shard a label value names, if it names one the way the operator writes it: a decimal number without a sign
     * or leading zeros, of at most nine digits. Anyone who may edit an object may write the label, and {@code "07"}
     * or {@code "+7"} would be selected by no replica's informer ({@code shard=7}): such values name no shard.
     */
    public static OptionalInt number(String label) {
        return label != null && label.matches("0|[1-9][0-9]{0,8}")
                ? OptionalInt.of(Integer.parseInt(label))
                : OptionalInt.empty();
    }

    /** Whether the label value names one of this fleet's shards, 0 to {@code count - 1}. */
    public boolean exists(String label) {
        OptionalInt shard = number(label);
        return shard.isPresent() && shard.getAsInt() < count;
    }

    /** The label selector of this replica's objects. */
    public String selector() {
        return Labels.SHARD + "=" + id;
    }

    /** The label selector of objects no replica owns yet. */
    public static String unassigned() {
        return "!" + Labels.SHARD;
    }

    /**
     * The shard of the object (a Kyma or a Run) named {@code name} in {@code namespace}: of all shards, the one that
     * scores highest for it (rendezvous hashing). Raising the count moves only the objects the new shards win, about
     * one in {@code count}; a hash modulo the count would move almost all of them.
     */
    public int of(String namespace, String name) {
        return moveTo(namespace, name, IntStream.range(0, count).boxed().toList());
    }

    /**
     * Where an object goes when only the {@code live} shards can take it: of them, the one that scores highest for it
     * (rendezvous hashing), so that the objects of a dead shard spread over the live ones and nothing else moves, and
     * an object whose own shard is live stays there.
     */
    public static int moveTo(String namespace, String name, Collection<Integer> live) {
        long key = Integer.toUnsignedLong(fnv(namespace + "/" + name));
        int best = -1;
        long bestScore = 0;
        for (int shard : live) {
            // unsigned comparison of a well-mixed score per (object, shard)
            long score = mix(key * 0x9E3779B97F4A7C15L + shard) ^ Long.MIN_VALUE;
            if (best < 0 || score > bestScore || (score == bestScore && shard < best)) {
                best = shard;
                bestScore = score;
            }
        }
        if (best < 0) {
            throw new IllegalArgumentException("no live shard to move " + namespace + "/" + name + " to");
        }
        return best;
    }

    /**
     * SplitMix64's finaliser: every bit of the input moves about half the bits of the output. FNV alone would not do
     * here, because the scores of one object for two shards would differ only by how its last bytes mix.
     */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
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
