package io.kyma.operator.manager.metrics;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kyma.operator.common.cache.SharedStore;

/**
 * The objects of an informer's store counted by a label (a phase, a state), kept up to date with each change of the
 * store rather than counted at every scrape: at 72,000 objects a scrape would otherwise rebuild each of them once per
 * label value.
 *
 * @param <R> the kind
 */
public final class StoreTally<R extends HasMetadata> {
    private final Function<R, String> label;
    private final ConcurrentHashMap<String, AtomicLong> counts = new ConcurrentHashMap<>();

    /** @param label the value an object is counted under, or null for none */
    public StoreTally(SharedStore<R> store, Function<R, String> label) {
        this.label = label;
        store.onChange(this::changed);
    }

    /** How many objects the store holds under {@code value}. */
    public long count(String value) {
        AtomicLong count = counts.get(value);
        return count == null ? 0 : count.get();
    }

    void changed(R before, R after) {
        String was = before == null ? null : label.apply(before);
        String is = after == null ? null : label.apply(after);
        if (was != null && was.equals(is)) {
            return;
        }
        if (was != null) {
            counts.computeIfAbsent(was, k -> new AtomicLong()).decrementAndGet();
        }
        if (is != null) {
            counts.computeIfAbsent(is, k -> new AtomicLong()).incrementAndGet();
        }
    }
}
