package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The optional gate of {@code --max-reconcile-rate}: one token bucket that every reconcile of every controller
 * passes, with a line per namespace served in turn ({@link FairTokenQueue}), so that one namespace's burst of
 * reconciles delays another's by at most one token per namespace waiting. The reconcile wrapper asks it before each
 * reconcile, knowing whose it is (JOSDK's own rate limiter is not told); a resource told to wait keeps its place and
 * comes back when its token is due, without taking a second one.
 */
public final class GlobalGate {
    /** The gate when {@code --max-reconcile-rate} is 0: every reconcile passes. */
    public static final GlobalGate OPEN = new GlobalGate(null, d -> {}, Clock.systemUTC());
    /** A token granted this long ago whose resource did not come back for it: the resource is gone. */
    static final Duration STALE = Duration.ofMinutes(1);

    private final FairTokenQueue bucket;
    private final Consumer<Duration> waitRecorder;
    private final Clock clock;
    private final Map<Object, FairTokenQueue.Ticket> reserved = new HashMap<>();
    private long asked;

    public GlobalGate(FairTokenQueue bucket, Consumer<Duration> waitRecorder, Clock clock) {
        this.bucket = bucket;
        this.waitRecorder = waitRecorder;
        this.clock = clock;
    }

    /**
     * Whether the reconcile of {@code key} (a resource of namespace {@code flow}) may run now: empty if so, else how
     * long until its token.
     */
    public synchronized Optional<Duration> admit(Object key, String flow) {
        if (bucket == null) {
            return Optional.empty();
        }
        if (++asked % 1024 == 0) {
            forgetStale();
        }
        FairTokenQueue.Ticket ticket = reserved.get(key);
        boolean first = ticket == null;
        if (first) {
            ticket = bucket.enqueue(flow);
            reserved.put(key, ticket);
        }
        Duration wait = RequeueLimiter.wholeMillis(bucket.waitFor(ticket));
        if (first) {
            waitRecorder.accept(wait);
        }
        if (wait.isZero()) {
            reserved.remove(key);
            return Optional.empty();
        }
        return Optional.of(wait);
    }

    /** Resources holding a place or a token, for tests. */
    synchronized int reserved() {
        return reserved.size();
    }

    private void forgetStale() {
        Instant before = clock.instant().minus(STALE);
        reserved.values()
                .removeIf(t -> !bucket.waiting(t)
                        && bucket.grantedAt(t) != null
                        && bucket.grantedAt(t).isBefore(before));
    }
}
