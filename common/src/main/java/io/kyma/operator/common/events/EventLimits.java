package io.kyma.operator.common.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which events may go out: at most {@code burst} per object, one more each {@code refill}, and identical events of one
 * object within {@code window} folded into the first (its count raised). State is kept for at most {@code objects}
 * objects and events, the least recently used forgotten first, so that no number of objects grows it without bound;
 * a forgotten object starts with a full bucket again.
 */
final class EventLimits {
    /** What to do with an event. */
    enum Verdict {
        /** Create a new Event. */
        CREATE,
        /** Raise the count of the identical Event sent before. */
        AGGREGATE,
        /** Drop it: its object spent its share. */
        LIMITED
    }

    record Decision(Verdict verdict, Sent previous) {}

    /** An Event that was sent: its name, its count so far and when it was first and last sent. */
    record Sent(String name, int count, Instant first, Instant last) {}

    private record Bucket(double tokens, Instant at) {}

    private final Clock clock;
    private final int burst;
    private final Duration refill;
    private final Duration window;
    private final Map<String, Bucket> buckets;
    private final Map<String, Sent> sent;

    EventLimits(Clock clock, int burst, Duration refill, Duration window, int objects) {
        this.clock = clock;
        this.burst = burst;
        this.refill = refill;
        this.window = window;
        this.buckets = lru(objects);
        this.sent = lru(objects);
    }

    /** A map of at most {@code bound} entries that forgets the least recently used first. */
    static <V> Map<String, V> lru(int bound) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > bound;
            }
        };
    }

    /**
     * @param object the object's uid (or namespace and name)
     * @param event the object together with what the event says
     */
    synchronized Decision decide(String object, String event) {
        Instant now = clock.instant();
        Bucket bucket = buckets.getOrDefault(object, new Bucket(burst, now));
        double refilled = Math.min(
                burst,
                bucket.tokens() + (double) Duration.between(bucket.at(), now).toNanos() / refill.toNanos());
        if (refilled < 1) {
            buckets.put(object, new Bucket(refilled, now));
            return new Decision(Verdict.LIMITED, null);
        }
        buckets.put(object, new Bucket(refilled - 1, now));
        Sent previous = sent.get(event);
        if (previous != null && Duration.between(previous.last(), now).compareTo(window) <= 0) {
            return new Decision(Verdict.AGGREGATE, previous);
        }
        return new Decision(Verdict.CREATE, null);
    }

    /** Records that the event went out as the Event {@code name}, the {@code count}th time. */
    synchronized void sent(String event, String name, int count, Instant first) {
        sent.put(event, new Sent(name, count, first, clock.instant()));
    }

    /** The Event sent for {@code event} is gone (deleted, expired): the next one is created anew. */
    synchronized void forget(String event) {
        sent.remove(event);
    }
}
