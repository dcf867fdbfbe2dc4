package io.kyma.operator.remotejob;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The service's jobs, and the idempotency keys they were started with. */
final class JobStore {
    private final Clock clock;
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final Map<String, String> idsByKey = new ConcurrentHashMap<>();
    private final AtomicLong started = new AtomicLong();
    private final Map<String, AtomicLong> startsPerKey;

    JobStore(Clock clock) {
        this(clock, new ConcurrentHashMap<>());
    }

    /** @param startsPerKey where to count the jobs each idempotency key started; it may outlive this store */
    JobStore(Clock clock, Map<String, AtomicLong> startsPerKey) {
        this.clock = clock;
        this.startsPerKey = startsPerKey;
    }

    /** The job of a new request, and whether it was started now (false: the key had started one before). */
    record Created(Job job, boolean isNew) {}

    synchronized Created create(
            String name,
            Map<String, String> params,
            String idempotencyKey,
            Duration duration,
            boolean fail,
            double linesPerSecond) {
        String existing = idsByKey.get(idempotencyKey);
        if (existing != null) {
            return new Created(jobs.get(existing), false);
        }
        String id = UUID.randomUUID().toString();
        Job job = new Job(id, name, params, clock.instant(), duration, fail, linesPerSecond);
        jobs.put(id, job);
        idsByKey.put(idempotencyKey, id);
        started.incrementAndGet();
        startsPerKey.computeIfAbsent(idempotencyKey, k -> new AtomicLong()).incrementAndGet();
        return new Created(job, true);
    }

    Optional<Job> get(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** Jobs started since the service began, repeated requests not counted. */
    long started() {
        return started.get();
    }

    /** Jobs started for one idempotency key: 0 or 1. */
    long startedFor(String idempotencyKey) {
        return idsByKey.containsKey(idempotencyKey) ? 1 : 0;
    }

    Clock clock() {
        return clock;
    }
}
