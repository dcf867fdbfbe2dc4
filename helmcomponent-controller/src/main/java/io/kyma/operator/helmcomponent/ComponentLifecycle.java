package io.kyma.operator.helmcomponent;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.kyma.operator.api.ComponentState;

/**
 * The installation lifecycle of the original scale experiment: a component is {@code pending} at once, {@code started}
 * one unit later, then {@code failing}, {@code retrying} and {@code success}, each N units after the previous state,
 * N being the length of the module's name.
 * <p>
 * Time is read only from the state's recorded start and the given clock reading, so a restarted operator continues
 * where it stood: a state whose time has passed moves on by exactly one step, never skipping one.
 */
public final class ComponentLifecycle {
    private final Duration unit;

    public ComponentLifecycle(Duration unit) {
        if (unit.isNegative() || unit.isZero()) {
            throw new IllegalArgumentException("the transition unit must be positive, got " + unit);
        }
        this.unit = unit;
    }

    /** What to do now. */
    public record Step(Optional<ComponentState> enter, Optional<Duration> delay) {
        static Step enter(ComponentState state, Optional<Duration> thenWait) {
            return new Step(Optional.of(state), thenWait);
        }

        static Step waitFor(Duration remaining) {
            return new Step(Optional.empty(), Optional.of(remaining));
        }

        static Step done() {
            return new Step(Optional.empty(), Optional.empty());
        }
    }

    /**
     * @param current the recorded state, or null for a new component
     * @param since when the current state was entered, or null when unknown (the state is then treated as due)
     * @param module the module name, whose length times the unit is the dwell of the later states
     * @param now the clock reading
     */
    public Step next(ComponentState current, Instant since, String module, Instant now) {
        if (current == null) {
            return Step.enter(ComponentState.PENDING, dwell(ComponentState.PENDING, module));
        }
        Optional<Duration> dwell = dwell(current, module);
        if (dwell.isEmpty()) {
            return Step.done();
        }
        if (since != null) {
            Duration remaining = Duration.between(now, since.plus(dwell.get()));
            if (!remaining.isNegative() && !remaining.isZero()) {
                return Step.waitFor(remaining);
            }
        }
        ComponentState following = ComponentState.values()[current.ordinal() + 1];
        return Step.enter(following, dwell(following, module));
    }

    /** How long a component stays in {@code state}; empty for the final state. */
    public Optional<Duration> dwell(ComponentState state, String module) {
        return switch (state) {
            case PENDING -> Optional.of(unit);
            case STARTED, FAILING, RETRYING -> Optional.of(unit.multipliedBy(module.length()));
            case SUCCESS -> Optional.empty();
        };
    }

    /** Time from creation to success: 1 + 3N units. */
    public Duration timeToSuccess(String module) {
        return unit.multipliedBy(1 + 3L * module.length());
    }
}
