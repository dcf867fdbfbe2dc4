package io.kyma.operator.common.events;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A bounded queue shared by tenants (namespaces) that serves them in turn, one item of a tenant at a time, and, when
 * full, makes room at the expense of the tenant with the most waiting, which loses its oldest item: one namespace's
 * flood delays and loses only its own items (the newest, such as a Kyma's last transition, stay), while another
 * namespace's item still gets in unless every waiting item is a different namespace's.
 * <p>
 * An item taken is the tenant's only one out: the tenant is not served again until its taker says it is
 * {@linkplain #done done}, so that however long that takes, it holds one taker, never two, and the other takers serve
 * the other tenants. Each tenant's items keep their order. A tenant with items waiting and none out is in the round
 * once; at most {@code capacity} items wait, so at most that many tenants, which bounds the search for the longest.
 */
final class TenantQueue<T> {
    private final int capacity;
    private final Map<String, ArrayDeque<T>> byTenant = new HashMap<>();
    /** The tenants with items waiting and none out, the next to be served first. */
    private final ArrayDeque<String> round = new ArrayDeque<>();
    /** The tenants with an item out. */
    private final Set<String> out = new HashSet<>();

    private int size;

    TenantQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Queues {@code item} for {@code tenant}.
     *
     * @return the item dropped to keep the bound, empty when nothing was: the oldest of the tenant with the most
     *     waiting, {@code tenant} itself when it would have as many as any with this item; {@code item} when
     *     {@code tenant} has none waiting and every other tenant has one
     */
    synchronized Optional<T> offer(String tenant, T item) {
        ArrayDeque<T> own = byTenant.get(tenant);
        int waiting = own == null ? 0 : own.size();
        Optional<T> dropped = Optional.empty();
        if (size == capacity) {
            ArrayDeque<T> longest = longest();
            if (waiting + 1 >= longest.size()) {
                if (waiting == 0) {
                    return Optional.of(item);
                }
                dropped = Optional.of(own.pollFirst());
            } else {
                // the longest has at least two: it keeps its place
                dropped = Optional.of(longest.pollFirst());
            }
            size--;
        }
        if (own == null) {
            own = new ArrayDeque<>();
            byTenant.put(tenant, own);
            if (!out.contains(tenant)) {
                round.addLast(tenant);
            }
        }
        own.addLast(item);
        size++;
        notifyAll();
        return dropped;
    }

    /** The next item in the round, waiting for one; its tenant's next waits until it is {@linkplain #done done}. */
    synchronized T take() throws InterruptedException {
        while (round.isEmpty()) {
            wait();
        }
        return next();
    }

    /** The next item in the round, if any waits; as {@link #take}. */
    synchronized Optional<T> poll() {
        return round.isEmpty() ? Optional.empty() : Optional.of(next());
    }

    /** The item taken for {@code tenant} is done with: the tenant's next may be taken. */
    synchronized void done(String tenant) {
        if (out.remove(tenant) && byTenant.containsKey(tenant)) {
            round.addLast(tenant);
            notifyAll();
        }
    }

    synchronized int size() {
        return size;
    }

    private T next() {
        String tenant = round.pollFirst();
        ArrayDeque<T> queue = byTenant.get(tenant);
        T item = queue.pollFirst();
        size--;
        if (queue.isEmpty()) {
            byTenant.remove(tenant);
        }
        out.add(tenant);
        return item;
    }

    /** The items of the tenant with the most waiting; of several, one in the round before one with an item out. */
    private ArrayDeque<T> longest() {
        ArrayDeque<T> longest = null;
        for (String tenant : round) {
            longest = longer(longest, byTenant.get(tenant));
        }
        for (String tenant : out) {
            longest = longer(longest, byTenant.get(tenant));
        }
        return longest;
    }

    private static <T> ArrayDeque<T> longer(ArrayDeque<T> longest, ArrayDeque<T> other) {
        return other != null && (longest == null || other.size() > longest.size()) ? other : longest;
    }
}
