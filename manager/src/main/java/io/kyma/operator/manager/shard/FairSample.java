package io.kyma.operator.manager.shard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.kyma.operator.manager.limits.FairShares;

/**
 * At most {@code limit} items drawn from a stream read twice, shared max-min fairly between namespaces: the first
 * read counts each namespace's items and shares the places ({@link FairShares#maxMin}), the second keeps a random
 * sample of each namespace's quota ({@link #offer}). A namespace with many items takes no more than what the others leave, so that labels one tenant
 * writes on thousands of objects do not crowd out another tenant's few.
 */
final class FairSample<T> {
    private final Map<String, Integer> quotas;
    private final Random random;
    private final Map<String, Reservoir<T>> kept = new HashMap<>();

    FairSample(Map<String, Integer> quotas, Random random) {
        this.quotas = quotas;
        this.random = random;
    }

    /** An item of the second read; kept in its namespace's sample, or not. */
    void offer(String namespace, T item) {
        int quota = quotas.getOrDefault(namespace, 0);
        if (quota > 0) {
            kept.computeIfAbsent(namespace, n -> new Reservoir<>(quota)).offer(item, random);
        }
    }

    /** The items kept, at most the sum of the quotas. */
    List<T> picked() {
        List<T> picked = new ArrayList<>();
        kept.values().forEach(r -> picked.addAll(r.items));
        return picked;
    }

    private static final class Reservoir<T> {
        private final int size;
        private final List<T> items = new ArrayList<>();
        private int seen;

        Reservoir(int size) {
            this.size = size;
        }

        void offer(T item, Random random) {
            seen++;
            if (items.size() < size) {
                items.add(item);
            } else {
                int slot = random.nextInt(seen);
                if (slot < size) {
                    items.set(slot, item);
                }
            }
        }
    }
}
