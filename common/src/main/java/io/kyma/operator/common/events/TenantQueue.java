package io.kyma.operator.common.events;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded queue shared by tenants (namespaces) that serves them in turn and, when full, makes room at the expense
 * of the tenant with the most waiting, which loses its oldest item: one namespace's flood delays and loses only its
 * own items (the newest, such as a Kyma's last transition, stay), while another namespace's item still gets in unless
 * every waiting item is a different namespace's.
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
     * @return the item dropped to keep the bound, empty when nothing was: the oldest of the tenant with the most
     *     waiting, {@code tenant} itself when it would have as many as any with this item; {@code item} when
     *     {@code tenant} has none waiting and every other tenant has one
     */
    synchronized Optional<T> offer(String tenant, T item) {
        ArrayDeque<T> own = byTenant.get(tenant);
        int waiting = own == null ? 0 : own.size();
        Optional<T> dropped = Optional.empty();
        if (size == capacity) {
            String longest = longest();
            if (waiting + 1 >= byTenant.get(longest).size()) {
                if (waiting == 0) {
                    return Optional.of(item);
                }
                dropped = Optional.of(own.pollFirst());
            } else {
                // the longest has at least two: it stays in the round
                dropped = Optional.of(byTenant.get(longest).pollFirst());
            }
            size--;
        }
        if (own == null) {
            own = new ArrayDeque<>();
            byTenant.put(tenant, own);
            round.addLast(tenant);
        }
        own.addLast(item);
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
