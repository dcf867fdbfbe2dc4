package io.kyma.operator.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a sequence of actions in a fresh world, checks the step oracles after each action and the quiescence oracles
 * once the world has settled, and stops at the first violation.
 *
 * @param <W> the world; closed after each run
 * @param <A> the actions
 */
public final class Chain<W extends AutoCloseable, A extends Action<W>> {
    /**
     * What one run found.
     *
     * @param steps actions applied before the violation was seen
     * @param atQuiescence whether it was seen at quiescence rather than after a step
     */
    public record Outcome(int steps, boolean atQuiescence, List<Violation> violations) {
        public boolean failed() {
            return !violations.isEmpty();
        }

        /** The oracles that were violated, to tell one failure from another while shrinking. */
        public List<String> oracles() {
            return violations.stream()
                    .map(Violation::oracle)
                    .distinct()
                    .sorted()
                    .toList();
        }
    }

    /**
     * What the world does by itself between actions, as a cluster's own faults ending: run before each action, with
     * {@code left} the actions still to come counting that one, and once more with {@code left} 0 before the final
     * judgement.
     */
    public interface Tick<W> {
        void before(W world, int left);
    }

    private final Supplier<W> worlds;
    private final List<Oracle<W>> afterEachStep;
    private final Function<W, List<Violation>> atQuiescence;
    private final boolean settleEachStep;
    private final Tick<W> tick;

    /**
     * @param worlds makes a fresh world for each run
     * @param afterEachStep checked after every action, on the world as it is at once
     * @param atQuiescence waits for the world to settle (within a hang catcher's deadline) and judges it
     */
    public Chain(Supplier<W> worlds, List<Oracle<W>> afterEachStep, Function<W, List<Violation>> atQuiescence) {
        this(worlds, afterEachStep, atQuiescence, false);
    }

    /**
     * @param settleEachStep whether each action waits for the world to settle and is judged at quiescence, so that
     *        every action meets a settled world (fewer interleavings, each failure pinned to its action), rather than
     *        only the last
     */
    public Chain(
            Supplier<W> worlds,
            List<Oracle<W>> afterEachStep,
            Function<W, List<Violation>> atQuiescence,
            boolean settleEachStep) {
        this(worlds, afterEachStep, atQuiescence, settleEachStep, (world, left) -> {});
    }

    /** @param tick what the world does by itself between actions */
    public Chain(
            Supplier<W> worlds,
            List<Oracle<W>> afterEachStep,
            Function<W, List<Violation>> atQuiescence,
            boolean settleEachStep,
            Tick<W> tick) {
        this.worlds = worlds;
        this.afterEachStep = List.copyOf(afterEachStep);
        this.atQuiescence = atQuiescence;
        this.settleEachStep = settleEachStep;
        this.tick = tick;
    }

    public Outcome run(List<A> actions) {
        try (W world = worlds.get()) {
            for (int i = 0; i < actions.size(); i++) {
                A action = actions.get(i);
                try {
                    tick.before(world, actions.size() - i);
                    action.apply(world);
                } catch (Exception e) {
                    return new Outcome(i + 1, false, List.of(new Violation("action", action.script() + " threw " + e)));
                }
                List<Violation> found = new ArrayList<>();
                afterEachStep.forEach(oracle -> found.addAll(oracle.check(world)));
                if (!found.isEmpty()) {
                    return new Outcome(i + 1, false, found);
                }
                if (settleEachStep && i < actions.size() - 1) {
                    List<Violation> settled = atQuiescence.apply(world);
                    if (!settled.isEmpty()) {
                        return new Outcome(i + 1, true, settled);
                    }
                }
            }
            tick.before(world, 0);
            return new Outcome(actions.size(), true, atQuiescence.apply(world));
        } catch (Exception e) {
            throw new IllegalStateException("closing the world failed", e);
        }
    }
}
