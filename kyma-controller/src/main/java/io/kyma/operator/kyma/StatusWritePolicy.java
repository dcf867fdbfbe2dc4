package io.kyma.operator.kyma;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;

/**
 * Decides when a Kyma's status is written. A change of phase, generation or Ready condition is written at once;
 * a change of counts alone at most once per interval, so a Kyma of 18 components costs a handful of writes
 * instead of one per component transition.
 */
public final class StatusWritePolicy {
    private final Duration countsInterval;

    public StatusWritePolicy(Duration countsInterval) {
        this.countsInterval = countsInterval;
    }

    /** Write now, write after a delay, or nothing to write. */
    public record Decision(boolean writeNow, Optional<Duration> retryAfter) {
        static final Decision NOTHING = new Decision(false, Optional.empty());
        static final Decision NOW = new Decision(true, Optional.empty());

        static Decision after(Duration delay) {
            return new Decision(false, Optional.of(delay));
        }
    }

    /**
     * @param current the status as stored, or null
     * @param desired the status as it should be
     * @param lastWrite when this operator last wrote the status, or null if it does not know
     */
    public Decision decide(KymaStatus current, KymaStatus desired, Instant lastWrite, Instant now) {
        if (current == null || significantChange(current, desired)) {
            return Decision.NOW;
        }
        if (sameCounts(current, desired)) {
            return Decision.NOTHING;
        }
        if (lastWrite == null) {
            return Decision.NOW;
        }
        Duration remaining = Duration.between(now, lastWrite.plus(countsInterval));
        return remaining.isNegative() || remaining.isZero() ? Decision.NOW : Decision.after(remaining);
    }

    private static boolean significantChange(KymaStatus current, KymaStatus desired) {
        return current.getPhase() != desired.getPhase()
                || !Objects.equals(current.getObservedGeneration(), desired.getObservedGeneration())
                || !sameConditionStates(current.getConditions(), desired.getConditions())
                // Only progress messages wait; an error's or a final state's message is news.
                || desired.getPhase() != KymaPhase.PROCESSING
                        && !sameConditions(current.getConditions(), desired.getConditions());
    }

    private static boolean sameCounts(KymaStatus current, KymaStatus desired) {
        return Objects.equals(current.getComponents(), desired.getComponents())
                && Objects.equals(current.getReadyComponents(), desired.getReadyComponents())
                && sameConditions(current.getConditions(), desired.getConditions());
    }

    private static boolean sameConditionStates(List<Condition> a, List<Condition> b) {
        return sameList(
                a,
                b,
                (x, y) -> Objects.equals(x.getType(), y.getType())
                        && Objects.equals(x.getStatus(), y.getStatus())
                        && Objects.equals(x.getReason(), y.getReason()));
    }

    private static boolean sameConditions(List<Condition> a, List<Condition> b) {
        return sameList(
                a,
                b,
                (x, y) -> Objects.equals(x.getType(), y.getType())
                        && Objects.equals(x.getStatus(), y.getStatus())
                        && Objects.equals(x.getReason(), y.getReason())
                        && Objects.equals(x.getMessage(), y.getMessage())
                        && Objects.equals(x.getObservedGeneration(), y.getObservedGeneration())
                        && Objects.equals(x.getLastTransitionTime(), y.getLastTransitionTime()));
    }

    private static boolean sameList(List<Condition> a, List<Condition> b, BiPredicate<Condition, Condition> same) {
        List<Condition> left = a == null ? List.of() : a;
        List<Condition> right = b == null ? List.of() : b;
        if (left.size() != right.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            if (!same.test(left.get(i), right.get(i))) {
                return false;
            }
        }
        return true;
    }
}
