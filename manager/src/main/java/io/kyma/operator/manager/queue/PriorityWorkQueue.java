package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;

/**
 * The reconcile executor's queue, in two lanes: reconciles that are due, and reconciles that can wait. Due work goes
 * first; once the oldest task that can wait has waited longer than {@code maxWait}, the lanes take turns, so neither
 * starves the other.
 *
 * <p>Within a lane, tasks are grouped by flow (the resource's namespace) and the flows take turns, one task each,
 * first in first out within a flow: the API server's fair queuing by flow, with one seat per turn. A namespace with
 * a thousand queued reconciles delays another namespace's reconcile by at most one task per namespace with work
 * queued in the same lane. A plain task belongs to the due lane and the flow {@code ""}.
 *
 * <p>That order is {@link ServiceOrder}'s; this class makes it the thread-safe, blocking queue the pool's workers
 * take from.
 */
public final class PriorityWorkQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

    /** A task with the flow it belongs to and whether it can wait behind due ones. */
    public record Tagged(Runnable task, String flow, boolean canWait) implements Runnable {
        public Tagged {
            Objects.requireNonNull(task);
            flow = flow == null ? "" : flow;
        }

        @Override
        public void run() {
            task.run();
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final FlowShares shares = new FlowShares();
    private final ServiceOrder order;

    public PriorityWorkQueue(Clock clock, Duration maxWait) {
        this.order = new ServiceOrder(clock, maxWait, shares);
    }

    /** Tasks queued that are due. */
    public int dueSize() {
        return read(order::dueSize);
    }

    /** Tasks queued that can wait. */
    public int canWaitSize() {
        return read(order::canWaitSize);
    }

    /** Flows (namespaces) with at least one task queued, counted once per lane they have tasks in. */
    public int flowsQueued() {
        return read(order::flows);
    }

    private int read(IntSupplier read) {
        lock.lock();
        try {
            return read.getAsInt();
        } finally {
            lock.unlock();
        }
    }

    private void change(Runnable change) {
        lock.lock();
        try {
            change.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Runnable task) {
        Objects.requireNonNull(task);
        Tagged tagged = task instanceof Tagged t ? t : null;
        String flow = tagged == null ? "" : tagged.flow();
        lock.lock();
        try {
            order.add(task, flow, tagged != null && tagged.canWait());
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void put(Runnable task) {
        offer(task);
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        return offer(task);
    }

    @Override
    public Runnable poll() {
        lock.lock();
        try {
            return order.next();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (order.size() == 0) {
                notEmpty.await();
            }
            return order.next();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (order.size() == 0) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return order.next();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells the queue how many workers there are; with {@link #started} and {@link #ended} it counts the workers each
     * flow holds, and a flow at its share of them waits while another flow below its share has work in the same lane
     * ({@link FlowShares}).
     */
    public void workers(int count) {
        change(() -> shares.workers(count));
    }

    /** A worker started {@code task}. */
    public void started(Runnable task) {
        change(() -> shares.started(flowOf(task)));
    }

    /** A worker ended {@code task}. */
    public void ended(Runnable task) {
        change(() -> shares.ended(flowOf(task)));
    }

    private static String flowOf(Runnable task) {
        return task instanceof Tagged t ? t.flow() : "";
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            return order.peek();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(Object task) {
        lock.lock();
        try {
            return order.remove(task);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        return read(order::size);
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    /** A snapshot, due tasks first, each lane flow by flow; removing through it is not supported. */
    @Override
    public Iterator<Runnable> iterator() {
        lock.lock();
        try {
            return Collections.unmodifiableList(order.tasks()).iterator();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink) {
        return drainTo(sink, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> sink, int maxElements) {
        lock.lock();
        try {
            int drained = 0;
            Runnable task;
            while (drained < maxElements && (task = order.next()) != null) {
                sink.add(task);
                drained++;
            }
            return drained;
        } finally {
            lock.unlock();
        }
    }
}
