package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.kyma.operator.common.WorkPriority;

/**
 * The reconcile thread pool shared by all controllers, on a {@link PriorityWorkQueue}: each reconcile is queued in its
 * namespace's flow, in the lane its controller's {@link WorkPriority} chooses.
 *
 * <p>JOSDK hands the pool a task that does not say which resource it is for. What does say it is the {@link Metrics}
 * hook JOSDK calls "right before a resource is dispatched to the ExecutorService", on the dispatching thread:
 * {@link #submissions()} is that hook, and it tags the one task that thread hands over next. Nothing else marks a task;
 * an untagged one is due work in the cluster-wide flow.
 */
public final class PrioritizingExecutor extends ThreadPoolExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(PrioritizingExecutor.class);

    private record Tag(String flow, boolean canWait) {}

    /** The tag of the next task the thread hands over: set by the hook, taken by {@link #execute}. */
    private final ThreadLocal<Tag> next = new ThreadLocal<>();
    /** Each controller's word on which of its reconciles can wait, by controller name. */
    private final Map<String, WorkPriority<HasMetadata>> priorities = new ConcurrentHashMap<>();

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

    /** The controller's reconciles can wait when {@code priority} says so; without one, all are due. */
    @SuppressWarnings("unchecked")
    public void prioritize(String controller, WorkPriority<? extends HasMetadata> priority) {
        priorities.put(controller, (WorkPriority<HasMetadata>) priority);
    }

    /** The hook to give JOSDK among its metrics, which tells this pool what each task it is handed is for. */
    public Metrics submissions() {
        return new Metrics() {
            @Override
            public void reconcileCustomResource(HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
                next(String.valueOf(metadata.get(Constants.CONTROLLER_NAME)), resource);
            }
        };
    }

    /** The next task this thread hands to {@link #execute} reconciles {@code resource} of {@code controller}. */
    void next(String controller, HasMetadata resource) {
        WorkPriority<HasMetadata> priority = priorities.get(controller);
        boolean canWait = false;
        try {
            canWait = priority != null && priority.canWait(resource);
        } catch (RuntimeException e) {
            // JOSDK (5.2.3) calls the hook after marking the resource under processing and before it queues the
            // reconcile:
            // an exception here would leave the resource marked for ever, never reconciled again. Due work it is.
            LOG.warn("{} {}: cannot tell whether its reconcile can wait; it is due", controller, name(resource), e);
        }
        next.set(new Tag(resource.getMetadata().getNamespace(), canWait));
    }

    private static String name(HasMetadata resource) {
        return resource.getMetadata().getName();
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
