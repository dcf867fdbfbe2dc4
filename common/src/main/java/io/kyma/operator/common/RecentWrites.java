package io.kyma.operator.common;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A bound on JOSDK's temporary cache, which holds the answer of each status write until the informer has that
 * version. JOSDK 5.2.3 neither bounds it nor tells its size; this mirror of it does both. A write is handed to JOSDK
 * only if {@link #admit} has room for it, and its entry goes when the informer's store holds that version or a later
 * one, or the object is gone, as JOSDK's own entry does.
 * <p>
 * When the watch lags behind the writes (a burst of thousands of them), the cache would grow with the lag; beyond the
 * bound a write's answer is not kept, and a reconcile that runs before the watch delivers it reads the older version:
 * its write then carries an outdated resourceVersion and the API server refuses it (409), to be retried on fresh data.
 * Memory is bounded; correctness is kept by the resourceVersion.
 */
public final class RecentWrites {
    private final int max;
    private final Function<String, ? extends HasMetadata> stored;
    private final ConcurrentHashMap<String, Long> versions = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();

    /**
     * @param max how many entries at most; 0 keeps none
     * @param stored what the informer's store holds under a key, or null
     */
    RecentWrites(int max, Function<String, ? extends HasMetadata> stored) {
        this.max = max;
        this.stored = stored;
    }

    /**
     * Whether JOSDK may keep the answer {@code written} of a write, which is then counted until the store has it. At
     * the bound, a write of an object already held replaces its entry; any other is refused and counted.
     */
    public boolean admit(String key, HasMetadata written) {
        long version = version(written);
        if (version < 0) {
            return false; // not comparable, so JOSDK could not tell when to let it go either
        }
        if (versions.size() >= max && !versions.containsKey(key)) {
            refused.incrementAndGet();
            return false;
        }
        versions.merge(key, version, Math::max);
        // The watch may have been first: then JOSDK keeps nothing, and neither may this. Checked after the entry is
        // in, so that a store write racing with this either sees the entry or is seen here.
        HasMetadata current = stored.apply(key);
        if (current != null && version(current) >= version) {
            versions.computeIfPresent(key, (k, held) -> held <= version(current) ? null : held);
        }
        return true;
    }

    /** The informer's store now holds {@code resource}: an entry for that version or an older one goes. */
    void seen(String key, HasMetadata resource) {
        if (!versions.isEmpty()) {
            long version = version(resource);
            versions.computeIfPresent(key, (k, held) -> version >= held ? null : held);
        }
    }

    /** The object is gone from the informer's store. */
    void forget(String key) {
        versions.remove(key);
    }

    public int size() {
        return versions.size();
    }

    public int max() {
        return max;
    }

    /** Writes whose answers were not kept because the cache was full. */
    public long refused() {
        return refused.get();
    }

    private static long version(HasMetadata resource) {
        try {
            return Long.parseLong(resource.getMetadata().getResourceVersion());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
