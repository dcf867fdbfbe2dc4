package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reconcile thread pool shared by all controllers, on a {@link PriorityWorkQueue}. JOSDK 5.2.3 hands each
 * reconcile to the pool right after telling its metrics which resource it is, on the same thread; the metrics hook
 * calls {@link #next} then, and the task that follows on that thread is queued in its namespace's flow and lane.
 */
public final class PrioritizingExecutor extends ThreadPoolExecutor {
    private record Tag(String flow, boolean canWait) {}

    private final ThreadLocal<Tag> next = new ThreadLocal<>();
    private final PriorityWorkQueue queue;

    public PrioritizingExecutor(int threads, Duration maxWait, Clock clock) {
        this(threads, new PriorityWorkQueue(clock, maxWait));
    }

    private PrioritizingExecutor(int threads, PriorityWorkQueue queue) {
        super(threads, threads, 0, TimeUnit.MILLISECONDS, queue, new Named());
        this.queue = queue;
        queue.workers(threads);
    }

    @Override
    protected void beforeExecute(Thread thread, Runnable task) {
        queue.started(task);
        super.beforeExecute(thread, task);
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
        super.afterExecute(task, failure);
        queue.ended(task);
    }

    /**
     * The next task this thread hands to {@link #execute} belongs to {@code flow} (its namespace; {@code null} for a
     * cluster-scoped resource) and, when {@code canWait}, can wait behind due ones.
     */
    public void next(String flow, boolean canWait) {
        next.set(new Tag(flow, canWait));
    }

    @Override
    public void execute(Runnable task) {
        Tag tag = next.get();
        next.remove();
        super.execute(tag == null ? task : new PriorityWorkQueue.Tagged(task, tag.flow(), tag.canWait()));
    }

    /** Tasks waiting for a worker that are due. */
    public int queuedDue() {
        return queue.dueSize();
    }

    /** Tasks waiting for a worker that can wait. */
    public int queuedCanWait() {
        return queue.canWaitSize();
    }

    private static final class Named implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "reconciler-" + count.incrementAndGet());
            thread.setDaemon(false);
            return thread;
        }
    }
}
