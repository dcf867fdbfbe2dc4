package io.kyma.operator.manager.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * When to hand the heap a burst grew back to the OS: once the reconcile pool has been quiet for a while and the heap
 * has grown well beyond what it was after the last return.
 *
 * <p>The serial collector, the Deployment's, grows its old generation to the cap during a burst and collects it only
 * when it cannot grow further; it has no periodic collection, so without one full collection after the burst the
 * process keeps the heap it peaked at for as long as it runs. One collection when the work has stopped, and only
 * when the heap has grown since the last one, gives that memory back without a collection in the middle of work and
 * without one every time the pool is idle.
 *
 * <p>Not thread-safe: one scheduled task asks it.
 */
public final class HeapReturn {
    private final Duration quiet;
    private final long minGain;
    private final Clock clock;

    private long lastWork = -1;
    private Instant lastWorkSeen;
    private long committedAfterReturn;

    /**
     * @param quiet how long the pool must have started no work and run none
     * @param minGain how much the committed heap must have grown since the last return (or since start) to collect
     * @param committedAtStart the committed heap when the manager started
     */
    public HeapReturn(Duration quiet, long minGain, long committedAtStart, Clock clock) {
        if (quiet.isZero() || quiet.isNegative()) {
            throw new IllegalArgumentException("quiet period must be positive: " + quiet);
        }
        this.quiet = quiet;
        this.minGain = minGain;
        this.committedAfterReturn = committedAtStart;
        this.clock = clock;
        this.lastWorkSeen = clock.instant();
    }

    /**
     * Whether to collect now.
     *
     * @param workStarted how many tasks the pool has been given so far; any change counts as work
     * @param busy whether a task is running now
     * @param committed the committed heap now
     */
    public boolean due(long workStarted, boolean busy, long committed) {
        Instant now = clock.instant();
        if (workStarted != lastWork || busy) {
            lastWork = workStarted;
            lastWorkSeen = now;
            return false;
        }
        if (Duration.between(lastWorkSeen, now).compareTo(quiet) < 0) {
            return false;
        }
        return committed - committedAfterReturn >= minGain;
    }

    /** After the collection: what is left committed is the mark the next growth is measured from. */
    public void returned(long committed) {
        committedAfterReturn = committed;
    }

    /** The committed heap after the last return, or at start. */
    public long committedAfterReturn() {
        return committedAfterReturn;
    }
}
