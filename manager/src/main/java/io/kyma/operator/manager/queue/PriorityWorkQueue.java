package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reconcile executor's queue, in two first-in-first-out lanes: reconciles that are due, and reconciles that can
 * wait (tasks wrapped in {@link CanWait}). Due work goes first. Once the oldest task that can wait has waited longer
 * than {@code maxWait}, the lanes take turns, so neither starves the other.
 */
public final class PriorityWorkQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

    /** A task that can wait behind due ones. */
    public record CanWait(Runnable task) implements Runnable {
        @Override
        public void run() {
            task.run();
        }
    }

    private record Queued(Runnable task, Instant since) {
    }

    private final Clock clock;
    private final Duration maxWait;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<Queued> due = new ArrayDeque<>();
    private final ArrayDeque<Queued> canWait = new ArrayDeque<>();
    /** Whether the last task taken was one that could wait: after an overdue one, a due one is next. */
    private boolean lastCouldWait;

    public PriorityWorkQueue(Clock clock, Duration maxWait) {
        this.clock = clock;
        this.maxWait = maxWait;
    }

    /** Tasks queued that are due. */
    public int dueSize() {
        lock.lock();
        try {
            return due.size();
        } finally {
            lock.unlock();
        }
    }

    /** Tasks queued that can wait. */
    public int canWaitSize() {
        lock.lock();
        try {
            return canWait.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Runnable task) {
        Objects.requireNonNull(task);
        lock.lock();
        try {
            (task instanceof CanWait ? canWait : due).addLast(new Queued(task, clock.instant()));
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
            return next();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (due.isEmpty() && canWait.isEmpty()) {
                notEmpty.await();
            }
            return next();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (due.isEmpty() && canWait.isEmpty()) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return next();
        } finally {
            lock.unlock();
        }
    }

    /** The lane to serve next; called with the lock held. */
    private Runnable next() {
        Queued dueHead = due.peekFirst();
        Queued waitHead = canWait.peekFirst();
        if (dueHead == null && waitHead == null) {
            return null;
        }
        boolean overdue = waitHead != null
                && Duration.between(waitHead.since(), clock.instant()).compareTo(maxWait) > 0;
        boolean takeWaiting = dueHead == null || overdue && !lastCouldWait;
        lastCouldWait = takeWaiting;
        return (takeWaiting ? canWait : due).pollFirst().task();
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            Queued head = due.isEmpty() ? canWait.peekFirst() : due.peekFirst();
            return head == null ? null : head.task();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(Object task) {
        lock.lock();
        try {
            return due.removeIf(q -> q.task().equals(task)) || canWait.removeIf(q -> q.task().equals(task));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return due.size() + canWait.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    /** A snapshot, due tasks first; removing through it is not supported. */
    @Override
    public Iterator<Runnable> iterator() {
        lock.lock();
        try {
            List<Runnable> all = new ArrayList<>(due.size() + canWait.size());
            due.forEach(q -> all.add(q.task()));
            canWait.forEach(q -> all.add(q.task()));
            return java.util.Collections.unmodifiableList(all).iterator();
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
            while (drained < maxElements && (task = next()) != null) {
                sink.add(task);
                drained++;
            }
            return drained;
        } finally {
            lock.unlock();
        }
    }
}
