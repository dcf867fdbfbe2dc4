package io.kyma.operator.testing;

import java.time.Duration;

/**
 * The deadlines of the integration tests' waits. Each one only catches a hang: a flow that stopped, or a wait for
 * something that will never come. None is a result. What a test asserts about time is a bound that holds on a machine
 * of any speed: no sooner than the arithmetic allows, at most so many writes or retries, this before that. How long
 * the work takes is the benchmark's figure ({@code make bench}), and a test that prints a duration only reports it.
 * <p>
 * So the deadlines are set far beyond what a slow or loaded machine needs for the work, so that such a machine fails
 * no test. The cost is that a real hang is reported late.
 */
public final class HangCatcher {
    /**
     * For one object's or process's next steps: a reconcile, a few transitions at a test's short unit, a deletion, an
     * operator process starting, a Lease running out and taken over. On a quiet machine these take seconds; a JVM
     * starting on a busy one can take tens of them.
     */
    public static final Duration STEP = Duration.ofMinutes(3);

    /**
     * For a load to finish: tens of Kymas or hundreds of Runs, or a Kyma at the real 1 s unit. On a quiet machine
     * these take from half a minute to two minutes.
     */
    public static final Duration LOAD = Duration.ofMinutes(15);

    private HangCatcher() {}
}
