package io.kyma.operator.helmcomponent;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Spreads the timers of components that fall due together (all components of a Kyma admitted at once enter their
 * states in the same millisecond, and modules of one name length stay in step): each wait grows by a random share of
 * up to 2 % of itself, at most 100 ms. A timer only ever fires later, never before its state is due.
 */
final class TimerSpread {
    static final double SHARE = 0.02;
    static final Duration MAX = Duration.ofMillis(100);
    static final TimerSpread NONE = new TimerSpread(() -> 0);

    private final DoubleSupplier random;

    /** @param random uniform in [0, 1) */
    TimerSpread(DoubleSupplier random) {
        this.random = random;
    }

    static TimerSpread random() {
        return new TimerSpread(() -> ThreadLocalRandom.current().nextDouble());
    }

    Duration after(Duration wait) {
        long spreadMax = Math.min((long) (wait.toNanos() * SHARE), MAX.toNanos());
        return wait.plusNanos((long) (spreadMax * random.getAsDouble()));
    }
}
