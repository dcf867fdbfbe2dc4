package io.kyma.operator.common.cache;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * A bound on JOSDK's temporary cache, which holds the answer of each status write until the informer has that
 * version. JOSDK 5.2.3 neither bounds it nor tells its size; this mirror of it does both, and keeps what JOSDK's cache
 * loses to a late watch event ({@link #newerThan}). A write is handed to JOSDK only if {@link #admit} has room for it,
 * and its entry goes when the informer's store holds that version or a later one, or the object is gone. An object
 * held is the one handed to JOSDK (which keeps it only while its view matches), in the form the store keeps.
 * <p>
 * When the watch lags behind the writes (a burst of thousands of them), the cache would grow with the lag; beyond the
 * bound a write's answer is not kept, and a reconcile that runs before the watch delivers it reads the older version:
 * its write then carries an outdated resourceVersion and the API server refuses it (409), to be retried on fresh data.
 * Memory is bounded; correctness is kept by the resourceVersion.
 */
public final class RecentWrites {
    private final int max;
    private final Function<String, ? extends HasMetadata> stored;
    /** The answer of the last write of each object, until the store has that version or a later one. */
    private final ConcurrentHashMap<String, HasMetadata> held = new ConcurrentHashMap<>();

    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong restored = new AtomicLong();

    /**
     * @param max how many entries at most; 0 keeps none
     * @param stored what the informer's store holds under a key, or null
     */
    RecentWrites(int max, Function<String, ? extends HasMetadata> stored) {
        this.max = max;
        this.stored = stored;
    }

    /**
     * Whether JOSDK may keep the answer {@code written} of a write, which is then held here too until the store has
     * it. At the bound, a write of an object already held replaces its entry; any other is refused and counted.
     *
     * @param written the answer in the form the store keeps
     */
    public boolean admit(String key, HasMetadata written) {
        long version = version(written);
        if (version < 0) {
            return false; // not comparable, so JOSDK could not tell when to let it go either
        }
        if (held.size() >= max && !held.containsKey(key)) {
            refused.incrementAndGet();
            return false;
        }
        held.merge(key, written, (old, now) -> version(now) >= version(old) ? now : old);
        // The watch may have been first: then JOSDK keeps nothing, and neither may this. Checked after the entry is
        // in, so that a store write racing with this either sees the entry or is seen here.
        HasMetadata current = stored.apply(key);
        if (current == null) {
            // Written from a reconcile of a stored object: gone since (deleted, or moved to another shard), and its
            // removal, already seen, would never take this entry out.
            held.remove(key);
            return false;
        }
        if (version(current) >= version) {
            held.computeIfPresent(key, (k, kept) -> version(kept) <= version(current) ? null : kept);
        }
        return true;
    }

    /**
     * The answer of this controller's last write of the object, when it is newer than {@code seen}. JOSDK 5.2.3's
     * temporary cache of primary resources does not compare resourceVersions (the setting that makes it compare
     * reaches only secondary resources): a watch event for the version before a write, arriving after the write's
     * answer, drops that answer, and until the watch delivers the write a reconcile would read the older version and
     * its write would be refused (409). Read with this, it reads what it wrote.
     */
    @SuppressWarnings("unchecked")
    public <R extends HasMetadata> Optional<R> newerThan(String key, R seen) {
        HasMetadata kept = held.get(key);
        if (kept == null
                || kept.getClass() != seen.getClass()
                || version(kept) <= version(seen)
                || !Objects.equals(
                        kept.getMetadata().getUid(), seen.getMetadata().getUid())) {
            return Optional.empty();
        }
        restored.incrementAndGet();
        return Optional.of((R) kept);
    }

    /** The informer's store now holds {@code resource}: an entry for that version or an older one goes. */
    void seen(String key, HasMetadata resource) {
        if (!held.isEmpty()) {
            long version = version(resource);
            held.computeIfPresent(key, (k, kept) -> version >= version(kept) ? null : kept);
        }
    }

    /** The object is gone from the informer's store. */
    void forget(String key) {
        held.remove(key);
    }

    public int size() {
        return held.size();
    }

    public int max() {
        return max;
    }

    /** Reconciles that were handed the answer of the last write because their view was older ({@link #newerThan}). */
    public long restored() {
        return restored.get();
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
