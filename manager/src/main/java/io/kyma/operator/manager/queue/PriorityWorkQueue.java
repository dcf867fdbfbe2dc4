package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.function.ObjIntConsumer;
import java.util.function.Predicate;

/**
 * The reconcile executor's queue, in two lanes: reconciles that are due, and reconciles that can wait. Due work goes
 * first; once the oldest task that can wait has waited longer than {@code maxWait}, the lanes take turns, so neither
 * starves the other.
 *
 * <p>Within a lane, tasks are grouped by flow (the resource's namespace) and the flows take turns, one task each,
 * first in first out within a flow: the API server's fair queuing by flow, with one seat per turn. A namespace with
 * a thousand queued reconciles delays another namespace's reconcile by at most one task per namespace with work
 * queued in the same lane. A plain task belongs to the due lane and the flow {@code ""}.
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

    private static final class Queued {
        final Runnable task;
        final String flow;
        final Instant since;
        /** The order of arrival, across flows. */
        final long seq;

        Queued(Runnable task, String flow, Instant since, long seq) {
            this.task = task;
            this.flow = flow;
            this.since = since;
            this.seq = seq;
        }
    }

    /**
     * One lane: a queue per flow, the flows in turn, and the head of each flow in order of arrival, to find the
     * oldest task (each flow is first in first out, so the oldest task is the oldest head).
     */
    private static final class Lane {
        private final Map<String, ArrayDeque<Queued>> byFlow = new HashMap<>();
        private final ArrayDeque<String> turns = new ArrayDeque<>();
        private final TreeSet<Queued> heads = new TreeSet<>(Comparator.comparingLong(q -> q.seq));
        /** Told of each flow that comes to have tasks here (+1) or to have none left (-1). */
        private final ObjIntConsumer<String> flowChange;

        private int size;

        Lane(ObjIntConsumer<String> flowChange) {
            this.flowChange = flowChange;
        }

        void add(Queued queued) {
            ArrayDeque<Queued> tasks = byFlow.get(queued.flow);
            if (tasks == null) {
                tasks = new ArrayDeque<>();
                byFlow.put(queued.flow, tasks);
                flowChange.accept(queued.flow, 1);
                turns.addLast(queued.flow);
                heads.add(queued);
            }
            tasks.addLast(queued);
            size++;
        }

        Queued oldest() {
            return heads.isEmpty() ? null : heads.first();
        }

        /** The head of the flow whose turn it is. */
        Queued peek() {
            String flow = turns.peekFirst();
            return flow == null ? null : byFlow.get(flow).peekFirst();
        }

        Queued poll() {
            return poll(flow -> true);
        }

        /**
         * The head of the first flow in turn that {@code mayRun} lets run; the flows passed over keep their place at
         * the front. When it lets none, the head of the flow whose turn it is.
         */
        Queued poll(Predicate<String> mayRun) {
            String flow = null;
            for (String candidate : turns) {
                if (mayRun.test(candidate)) {
                    flow = candidate;
                    break;
                }
            }
            if (flow == null) {
                flow = turns.peekFirst();
                if (flow == null) {
                    return null;
                }
            }
            turns.remove(flow);
            Queued head = takeHead(flow);
            if (byFlow.containsKey(flow)) {
                turns.addLast(flow);
            }
            return head;
        }

        /** Takes the head of a flow, keeping the heads in step; drops the flow if it is empty then. */
        private Queued takeHead(String flow) {
            ArrayDeque<Queued> tasks = byFlow.get(flow);
            Queued head = tasks.pollFirst();
            heads.remove(head);
            if (tasks.isEmpty()) {
                byFlow.remove(flow);
                flowChange.accept(flow, -1);
            } else {
                heads.add(tasks.peekFirst());
            }
            size--;
            return head;
        }

        /** Linear in the tasks queued: the pool calls it only when it shuts down or refuses a task. */
        boolean remove(Object task) {
            for (ArrayDeque<Queued> tasks : byFlow.values()) {
                for (Queued queued : tasks) {
                    if (queued.task.equals(task)) {
                        if (tasks.peekFirst() == queued) {
                            takeHead(queued.flow);
                            if (!byFlow.containsKey(queued.flow)) {
                                turns.remove(queued.flow);
                            }
                        } else {
                            tasks.remove(queued);
                            size--;
                        }
                        return true;
                    }
                }
            }
            return false;
        }

        int size() {
            return size;
        }

        int flows() {
            return byFlow.size();
        }

        void addTasksTo(List<Runnable> all) {
            byFlow.values().forEach(tasks -> tasks.forEach(q -> all.add(q.task)));
        }
    }

    private final Clock clock;
    private final Duration maxWait;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    /**
     * Each flow that runs or waits, with how many of the two (its tasks running, and the lanes it has tasks in): kept
     * as they change, so that a share costs no pass over the flows.
     */
    private final Map<String, Integer> active = new HashMap<>();

    private final Lane due = new Lane(this::activity);
    private final Lane canWait = new Lane(this::activity);
    /** Whether the last task taken was one that could wait: after an overdue one, a due one is next. */
    private boolean lastCouldWait;
    /** The workers of the pool; 0 until the pool says (then no flow is held to a share). */
    private int workers;
    /** Workers held, by flow. */
    private final Map<String, Integer> running = new HashMap<>();

    private long arrivals;

    public PriorityWorkQueue(Clock clock, Duration maxWait) {
        this.clock = clock;
        this.maxWait = maxWait;
    }

    /** Tasks queued that are due. */
    public int dueSize() {
        return locked(due::size);
    }

    /** Tasks queued that can wait. */
    public int canWaitSize() {
        return locked(canWait::size);
    }

    /** Flows (namespaces) with at least one task queued, in either lane. */
    public int flowsQueued() {
        return locked(() -> due.flows() + canWait.flows());
    }

    private int locked(IntSupplier read) {
        lock.lock();
        try {
            return read.getAsInt();
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
            Lane lane = tagged != null && tagged.canWait() ? canWait : due;
            lane.add(new Queued(task, flow, clock.instant(), arrivals++));
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
            while (isEmptyLocked()) {
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
            while (isEmptyLocked()) {
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

    private boolean isEmptyLocked() {
        return due.size() == 0 && canWait.size() == 0;
    }

    /** The lane to serve next; called with the lock held. */
    private Runnable next() {
        if (isEmptyLocked()) {
            return null;
        }
        Queued oldestWaiting = canWait.oldest();
        boolean overdue = oldestWaiting != null
                && Duration.between(oldestWaiting.since, clock.instant()).compareTo(maxWait) > 0;
        boolean takeWaiting = due.size() == 0 || overdue && !lastCouldWait;
        lastCouldWait = takeWaiting;
        int share = share();
        return (takeWaiting ? canWait : due).poll(flow -> running.getOrDefault(flow, 0) < share).task;
    }

    /**
     * The workers a flow may hold while a flow below its share has work in the same lane: the workers divided among
     * the flows that run or wait, as the API server's fair queuing gives each flow its seats. A namespace whose
     * reconciles run long so cannot come to hold every worker while another namespace's work waits. When no flow
     * below its share waits, the turn goes as usual: no worker idles.
     */
    private int share() {
        if (workers <= 0 || running.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        return (workers + active.size() - 1) / active.size();
    }

    /** Counts a flow's activity up or down; called with the lock held. */
    private void activity(String flow, int change) {
        active.merge(flow, change, (was, by) -> was + by == 0 ? null : was + by);
    }

    /**
     * Tells the queue how many workers there are; with {@link #started} and {@link #ended} it counts the workers each
     * flow holds ({@link #share}).
     */
    public void workers(int count) {
        lock.lock();
        try {
            workers = count;
        } finally {
            lock.unlock();
        }
    }

    /** A worker started {@code task}. */
    public void started(Runnable task) {
        String flow = task instanceof Tagged t ? t.flow() : "";
        lock.lock();
        try {
            running.merge(flow, 1, Integer::sum);
            activity(flow, 1);
        } finally {
            lock.unlock();
        }
    }

    /** A worker ended {@code task}. */
    public void ended(Runnable task) {
        String flow = task instanceof Tagged t ? t.flow() : "";
        lock.lock();
        try {
            if (running.containsKey(flow)) {
                running.computeIfPresent(flow, (f, n) -> n > 1 ? n - 1 : null);
                activity(flow, -1);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            Queued head = due.size() == 0 ? canWait.peek() : due.peek();
            return head == null ? null : head.task;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean remove(Object task) {
        lock.lock();
        try {
            return due.remove(task) || canWait.remove(task);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        return locked(() -> due.size() + canWait.size());
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
            List<Runnable> all = new ArrayList<>(due.size() + canWait.size());
            due.addTasksTo(all);
            canWait.addTasksTo(all);
            return Collections.unmodifiableList(all).iterator();
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
