package io.kyma.operator.common.status;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kyma.operator.api.Labels;

/**
 * A tenant may write the shard-drain label on its objects; only the two values of the hand-over between shards act,
 * and any other is ignored. This says so in the status: a condition {@value #TYPE} {@code False} with reason
 * {@value #REASON} names the objects and their values while one carries such a value, and is gone once none does.
 */
public final class ShardLabelCondition {
    public static final String TYPE = "ShardLabels";
    public static final String REASON = "UnknownDrainValue";
    /** How many objects the message names at most; a Kyma's 100 components would make it long. */
    static final int NAMED = 3;

    private record Named(String kind, String name, String value) {}

    private ShardLabelCondition() {}

    /** The object's drain label value when it is not a step of the hand-over. */
    public static Optional<String> ignoredValue(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String value = labels == null ? null : labels.get(Labels.SHARD_DRAIN);
        boolean step =
                Labels.SHARD_DRAIN_REQUESTED_VALUE.equals(value) || Labels.SHARD_DRAIN_DRAINED_VALUE.equals(value);
        return value == null || step ? Optional.empty() : Optional.of(value);
    }

    /**
     * {@code previous} with the condition set when any of {@code objects} carries a drain value the hand-over does not
     * define, and without it otherwise.
     */
    public static List<Condition> apply(
            Conditions conditions, List<Condition> previous, Long generation, Stream<? extends HasMetadata> objects) {
        // sorted: the objects come in no stable order, and the message must not change with it
        List<String> named = objects.flatMap(o -> ignoredValue(o)
                        .map(value -> new Named(
                                o.getKind() == null ? "" : o.getKind(),
                                o.getMetadata().getName(),
                                value))
                        .stream())
                .sorted(Comparator.comparing(Named::kind).reversed().thenComparing(Named::name))
                .map(n -> n.kind() + " " + n.name() + " has " + Labels.SHARD_DRAIN + "=" + n.value())
                .toList();
        if (named.isEmpty()) {
            return Conditions.find(previous, TYPE).isPresent() ? Conditions.without(previous, TYPE) : previous;
        }
        String message = String.join("; ", named.subList(0, Math.min(NAMED, named.size())))
                + (named.size() > NAMED ? " and " + (named.size() - NAMED) + " more" : "")
                + ": ignored, only " + Labels.SHARD_DRAIN_REQUESTED_VALUE + " and " + Labels.SHARD_DRAIN_DRAINED_VALUE
                + " (the hand-over between shards) act";
        return Conditions.replace(previous, conditions.condition(previous, TYPE, false, REASON, message, generation));
    }
}
