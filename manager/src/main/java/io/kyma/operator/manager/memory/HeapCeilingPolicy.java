package io.kyma.operator.manager.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * When to collect the old generation before the collector grows it: once the garbage in it exceeds a share of the
 * live data the last full collection found.
 *
 * <p>The serial collector, the Deployment's, promotes into the old generation and, when that is full, expands it
 * rather than collect it, up to the heap's cap; only a generation that can grow no more is collected. A burst
 * promotes about a mebibyte of short-lived objects a second (requests waiting on the client's budget outlive several
 * young collections), so the heap reaches its cap whatever the live data, and the process's memory with it. A
 * ceiling that follows the live data keeps the heap near it: a full collection of a small old generation takes tens
 * of milliseconds.
 *
 * <p>Once the ceiling comes near the old generation's cap it steps aside ({@link #MAX_SHARE_OF_CAP}).
 *
 * <p>Collections it asks for stay within a share of the wall time ({@link #MAX_TIME_SHARE}): after one that paused
 * {@code p}, the next waits {@code p / share - p}, so a heap whose live data grows as fast as the ceiling does not
 * collect back to back; the collector then grows the heap, as without a ceiling.
 *
 * <p>Not thread-safe: one scheduled task asks it.
 */
public final class HeapCeilingPolicy {
    /** The most of the wall time collections asked for by this policy may take. */
    static final double MAX_TIME_SHARE = 0.02;
    /**
     * A ceiling above this share of the old generation's cap is left to the collector: it saves little memory, and
     * collecting live data that large is what takes long. At N = 4000 (82 MiB live, a cap of 118) a ceiling of half the
     * live data saved none of the peak and asked for 87 full collections ({@code against-go/n4000-ceiling-uncapped}).
     */
    static final double MAX_SHARE_OF_CAP = 0.75;

    private final double headroom;
    private final long minHeadroom;
    private final Clock clock;
    private Instant notBefore;

    /**
     * @param headroom the garbage allowed in the old generation, as a share of its live data (0.5: half)
     * @param minHeadroom the garbage allowed however little is live
     */
    public HeapCeilingPolicy(double headroom, long minHeadroom, Clock clock) {
        if (!(headroom > 0) || minHeadroom < 0) {
            throw new IllegalArgumentException("headroom must be positive: " + headroom + ", " + minHeadroom);
        }
        this.headroom = headroom;
        this.minHeadroom = minHeadroom;
        this.clock = clock;
        this.notBefore = clock.instant();
    }

    /** The old generation's use at which to collect, given what the last full collection left in it. */
    public long ceiling(long liveAfterLastFull) {
        long live = Math.max(0, liveAfterLastFull);
        return live + Math.max(minHeadroom, (long) (live * headroom));
    }

    /**
     * Whether to collect now.
     *
     * @param oldUsed the old generation's use now
     * @param liveAfterLastFull its use right after the last full collection (0 before the first)
     * @param oldMax the most the old generation may grow to; negative if unknown
     */
    public boolean observe(long oldUsed, long liveAfterLastFull, long oldMax) {
        long ceiling = ceiling(liveAfterLastFull);
        if (oldMax >= 0 && ceiling > oldMax * MAX_SHARE_OF_CAP) {
            // the collector's own full collection, at the cap, comes little later: no memory to save
            return false;
        }
        return oldUsed >= ceiling && !clock.instant().isBefore(notBefore);
    }

    /** After a collection this policy asked for, which paused the application for {@code pause}. */
    public void collected(Duration pause) {
        long millis = Math.max(0, pause.toMillis());
        notBefore = clock.instant().plusMillis((long) (millis / MAX_TIME_SHARE) - millis);
    }
}
