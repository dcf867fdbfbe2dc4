package io.kyma.operator.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Sequences of actions drawn by weight from a seed. Each kind of action makes its own parameters from the same
 * {@link Seeded}, so a seed and a length name one sequence for good.
 *
 * @param <A> the actions
 */
public final class Generator<A> {
    private record Kind<A>(int weight, Function<Seeded, ? extends A> make) {}

    private final List<Kind<A>> kinds = new ArrayList<>();
    private int total;

    /** Adds a kind of action drawn {@code weight} times in {@link #total()} on average. */
    public Generator<A> weight(int weight, Function<Seeded, ? extends A> make) {
        if (weight <= 0) {
            throw new IllegalArgumentException("a weight is at least 1");
        }
        kinds.add(new Kind<>(weight, make));
        total += weight;
        return this;
    }

    public int total() {
        return total;
    }

    public List<A> sequence(long seed, int steps) {
        Seeded random = new Seeded(seed);
        List<A> actions = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            int drawn = random.below(total);
            for (Kind<A> kind : kinds) {
                drawn -= kind.weight();
                if (drawn < 0) {
                    actions.add(kind.make().apply(random));
                    break;
                }
            }
        }
        return actions;
    }
}
