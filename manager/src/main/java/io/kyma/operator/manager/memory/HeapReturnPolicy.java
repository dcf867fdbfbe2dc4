package io.kyma.operator.manager.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * When to hand the heap a burst grew back to the OS: once the reconcile pool has been quiet for a while after the
 * heap grew, or after a burst of work that may have freed much of what it held (deleting many Kymas frees heap
 * without growing it).
 *
 * <p>The serial collector, the Deployment's, grows its old generation to the cap during a burst and collects it only
 * when it cannot grow further; it has no periodic collection, so without full collections after the burst the
 * process keeps the heap it peaked at for as long as it runs. Collecting once the work has stopped gives that memory
 * back, without a collection in the middle of a burst and without one every time the pool is idle.
 *
 * <p>Quiet means no reconcile waiting for a worker and at most {@link #QUIET_RATE} started per second since the last
 * check: a few Runs polling their jobs keep the pool that busy, a burst a hundred times busier.
 *
 * <p>Not thread-safe: one scheduled task asks it.
 */
public final class HeapReturnPolicy {
    /** Reconciles started per second at or below which the pool counts as quiet. */
    static final double QUIET_RATE = 1.0;
    /** Reconciles since the last return after which a quiet pool collects even if the heap did not grow. */
    static final long BURST_WORK = 1_000;

    private final Duration quiet;
    private final long minGain;
    private final Clock clock;

    private long lastWork = -1;
    private Instant lastCheck;
    private Instant lastBusy;
    private long workAtReturn;
    /** The least committed heap seen since the last return (or start): growth is measured from it. */
    private long mark;

    /**
     * @param quiet how long the pool must have been quiet
     * @param minGain how much the committed heap must have grown above its least since the last return
     * @param committedAtStart the committed heap when the manager started
     */
    public HeapReturnPolicy(Duration quiet, long minGain, long committedAtStart, Clock clock) {
        if (quiet.isZero() || quiet.isNegative()) {
            throw new IllegalArgumentException("quiet period must be positive: " + quiet);
        }
        this.quiet = quiet;
        this.minGain = minGain;
        this.mark = committedAtStart;
        this.clock = clock;
        this.lastCheck = clock.instant();
        this.lastBusy = lastCheck;
    }

    /**
     * Records what the pool did since the last check and says whether to collect now.
     *
     * @param workStarted how many tasks the pool has been given so far
     * @param queued tasks waiting for a worker now
     * @param committed the committed heap now
     */
    public boolean observe(long workStarted, int queued, long committed) {
        Instant now = clock.instant();
        mark = Math.min(mark, committed);
        double seconds = Math.max(Duration.between(lastCheck, now).toMillis(), 1) / 1000.0;
        boolean busy = lastWork < 0 || queued > 0 || workStarted - lastWork > QUIET_RATE * seconds;
        if (lastWork < 0) {
            workAtReturn = workStarted;
        }
        lastWork = workStarted;
        lastCheck = now;
        if (busy) {
            lastBusy = now;
            return false;
        }
        if (Duration.between(lastBusy, now).compareTo(quiet) < 0) {
            return false;
        }
        return committed - mark >= minGain || workStarted - workAtReturn >= BURST_WORK;
    }

    /** After the collection (or an attempt that failed): the marks the next return is measured from. */
    public void returned(long committed) {
        mark = committed;
        workAtReturn = lastWork;
    }
}
