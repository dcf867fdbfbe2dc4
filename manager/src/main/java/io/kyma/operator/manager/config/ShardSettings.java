package io.kyma.operator.manager.config;

import java.util.List;
import java.util.regex.Pattern;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;
import io.kyma.operator.manager.shard.Shards;

/** The flags that split the objects between replicas, read into {@link Shards}. */
final class ShardSettings {
    static final Flag<Integer> SHARDS = Flag.of(
            "shards",
            "1",
            "Number of replicas that split the Kymas, HelmComponents and Runs between them by the label"
                    + " `kyma-project.io/shard` (1 to 64); `1` runs unsharded.",
            Parsers.integer(1, Shards.MAX));
    static final Flag<Integer> SHARD_ID = Flag.of(
            "shard-id",
            "0",
            "This replica's shard, from 0 to `--shards` minus 1; a pod name ending in `-N` (a StatefulSet pod's"
                    + " name) means N (`-1` is refused, not read as 1).",
            ShardSettings::shardNumber);
    static final List<Flag<?>> FLAGS = List.of(SHARDS, SHARD_ID);

    private ShardSettings() {}

    static Shards from(Flags.Values values) {
        int count = values.get(SHARDS);
        int id = values.get(SHARD_ID);
        if (id >= count) {
            throw new FlagException(SHARD_ID.flagName() + " must be below --shards (" + count + "), got " + id);
        }
        return new Shards(count, id);
    }

    /** A shard number, or a StatefulSet pod's name whose ordinal is the number. */
    private static int shardNumber(String text) {
        // a StatefulSet pod's name is a DNS label; a bare "-1" is a negative number, not a name
        var m = Pattern.compile("(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?-)?([0-9]{1,6})")
                .matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is neither a number from 0 nor a pod name ending in -N");
        }
        return Integer.parseInt(m.group(1));
    }
}
