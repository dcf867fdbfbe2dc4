package io.kyma.operator.testing.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/** The one source of choices of a generated run: the same seed makes the same choices, on any machine. */
public final class Seeded {
    private final long seed;
    private final SplittableRandom random;

    public Seeded(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    public long seed() {
        return seed;
    }

    /** A whole number from 0 to {@code bound - 1}. */
    public int below(int bound) {
        return random.nextInt(bound);
    }

    /** A whole number from {@code from} to {@code to}, both included. */
    public int between(int from, int to) {
        return from + random.nextInt(to - from + 1);
    }

    /** True with probability {@code p}. */
    public boolean chance(double p) {
        return random.nextDouble() < p;
    }

    public <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }

    @SafeVarargs
    public final <T> T pick(T... items) {
        return items[random.nextInt(items.length)];
    }
}
