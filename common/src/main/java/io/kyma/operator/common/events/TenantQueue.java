package io.kyma.operator.common.events;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded queue shared by tenants (namespaces) that serves them in turn and, when full, makes room at the expense
 * of the tenant with the most waiting: one namespace's flood delays and loses only its own items, while another's
 * first item still gets in and waits behind at most one item of each other tenant.
 * <p>
 * Each tenant's items keep their order. A tenant with items waiting is in the round once; at most {@code capacity}
 * items wait, so at most that many tenants, which bounds the search for the longest.
 */
final class TenantQueue<T> {
    private final int capacity;
    private final Map<String, ArrayDeque<T>> byTenant = new HashMap<>();
    private final ArrayDeque<String> round = new ArrayDeque<>();
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
     * @return the item dropped to keep the bound: the newest of the tenant with the most waiting, which is
     *     {@code item} itself when that is {@code tenant} (or a tenant tied with it); empty when nothing was dropped
     */
    synchronized Optional<T> offer(String tenant, T item) {
        Optional<T> dropped = Optional.empty();
        if (size == capacity) {
            String longest = longest();
            int own = byTenant.containsKey(tenant) ? byTenant.get(tenant).size() : 0;
            if (own + 1 >= byTenant.get(longest).size()) {
                return Optional.of(item);
            }
            ArrayDeque<T> theirs = byTenant.get(longest);
            dropped = Optional.of(theirs.pollLast());
            size--;
        }
        ArrayDeque<T> queue = byTenant.computeIfAbsent(tenant, t -> new ArrayDeque<>());
        if (queue.isEmpty()) {
            round.addLast(tenant);
        }
        queue.addLast(item);
        size++;
        notifyAll();
        return dropped;
    }

    /** The next item in the round, waiting for one. */
    synchronized T take() throws InterruptedException {
        while (size == 0) {
            wait();
        }
        return next();
    }

    /** The next item in the round, if any waits. */
    synchronized Optional<T> poll() {
        return size == 0 ? Optional.empty() : Optional.of(next());
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
        } else {
            round.addLast(tenant);
        }
        return item;
    }

    /** The tenant with the most waiting; of several, the one served soonest. */
    private String longest() {
        String longest = null;
        int most = -1;
        for (String tenant : round) {
            int waiting = byTenant.get(tenant).size();
            if (waiting > most) {
                most = waiting;
                longest = tenant;
            }
        }
        return longest;
    }
}
