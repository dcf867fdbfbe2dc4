package io.kyma.operator.common.status;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;

/** Builds status conditions; a condition keeps its lastTransitionTime while its status does not change. */
public final class Conditions {
    /** A condition's status, as {@code metav1.Condition} spells it. */
    public enum Status {
        TRUE("True"),
        FALSE("False"),
        UNKNOWN("Unknown");

        private final String text;

        Status(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    private final Clock clock;

    public Conditions(Clock clock) {
        this.clock = clock;
    }

    /**
     * The condition of the given type, carried over from {@code previous}: the transition time is now only when
     * the status flips (or the condition is new).
     */
    public Condition condition(
            List<Condition> previous,
            String type,
            boolean status,
            String reason,
            String message,
            Long observedGeneration) {
        return condition(previous, type, status ? Status.TRUE : Status.FALSE, reason, message, observedGeneration);
    }

    /** As {@link #condition(List, String, boolean, String, String, Long)}, for a status that may be Unknown. */
    public Condition condition(
            List<Condition> previous,
            String type,
            Status status,
            String reason,
            String message,
            Long observedGeneration) {
        String statusText = status.text();
        String transitionTime = find(previous, type)
                .filter(old -> statusText.equals(old.getStatus()) && old.getLastTransitionTime() != null)
                .map(Condition::getLastTransitionTime)
                .orElseGet(() -> timestamp(clock.instant()));
        return new ConditionBuilder()
                .withType(type)
                .withStatus(statusText)
                .withReason(reason)
                .withMessage(message)
                .withObservedGeneration(observedGeneration)
                .withLastTransitionTime(transitionTime)
                .build();
    }

    /** {@code conditions} with the one of the same type replaced by {@code replacement}, order kept. */
    public static List<Condition> replace(List<Condition> conditions, Condition replacement) {
        List<Condition> out = new ArrayList<>();
        boolean replaced = false;
        for (Condition c : conditions == null ? List.<Condition>of() : conditions) {
            if (Objects.equals(c.getType(), replacement.getType())) {
                out.add(replacement);
                replaced = true;
            } else {
                out.add(c);
            }
        }
        if (!replaced) {
            out.add(replacement);
        }
        return out;
    }

    /** {@code conditions} without the one of the given type, order kept. */
    public static List<Condition> without(List<Condition> conditions, String type) {
        List<Condition> out = new ArrayList<>(conditions == null ? List.of() : conditions);
        out.removeIf(c -> Objects.equals(c.getType(), type));
        return out;
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null
                ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** RFC 3339 with second precision, as Kubernetes writes times. */
    public static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
