package io.kyma.operator.manager.queue;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The order in which the {@link PriorityWorkQueue} serves its tasks. Due work goes first; once the oldest task that
 * can wait has waited longer than {@code maxWait}, the lanes take turns, so neither starves the other. Within a lane
 * the flows take turns ({@link Lane}), and a flow at its share of the workers passes its turn to one below it
 * ({@link FlowShares}). Not thread-safe: the queue calls it with its lock held, and does the waiting.
 */
final class ServiceOrder {
    private final Clock clock;
    private final Duration maxWait;
    private final FlowShares shares;
    private final Lane due;
    private final Lane canWait;
    /** Whether the last task taken was one that could wait: after an overdue one, a due one is next. */
    private boolean lastCouldWait;

    private long arrivals;

    /** @param shares told of the flows that come to have tasks queued or have none left, and asked for their share */
    ServiceOrder(Clock clock, Duration maxWait, FlowShares shares) {
        this.clock = clock;
        this.maxWait = maxWait;
        this.shares = shares;
        this.due = new Lane(shares::activity);
        this.canWait = new Lane(shares::activity);
    }

    /** Queues a task at the end of its flow in its lane, as arrived now. */
    void add(Runnable task, String flow, boolean canWait) {
        (canWait ? this.canWait : due).add(new Lane.Queued(task, flow, clock.instant(), arrivals++));
    }

    /** Takes the task to serve next; null if none is queued. */
    Runnable next() {
        if (size() == 0) {
            return null;
        }
        Lane.Queued oldestWaiting = canWait.oldest();
        boolean overdue = oldestWaiting != null
                && Duration.between(oldestWaiting.since(), clock.instant()).compareTo(maxWait) > 0;
        boolean takeWaiting = due.size() == 0 || overdue && !lastCouldWait;
        lastCouldWait = takeWaiting;
        // a flow at its share passes its turn to one below it in the lane; when none below waits, no worker idles
        return (takeWaiting ? canWait : due).poll(shares.belowShare()).task();
    }

    /** The head of the due lane's flow in turn, else of the lane that can wait's; null if none is queued. */
    Runnable peek() {
        Lane.Queued head = due.size() == 0 ? canWait.peek() : due.peek();
        return head == null ? null : head.task();
    }

    boolean remove(Object task) {
        return due.remove(task) || canWait.remove(task);
    }

    int dueSize() {
        return due.size();
    }

    int canWaitSize() {
        return canWait.size();
    }

    int size() {
        return due.size() + canWait.size();
    }

    /** Flows with at least one task queued, counted once per lane they have tasks in. */
    int flows() {
        return due.flows() + canWait.flows();
    }

    /** The tasks queued, due ones first, each lane flow by flow. */
    List<Runnable> tasks() {
        List<Runnable> all = new ArrayList<>(size());
        due.addTasksTo(all);
        canWait.addTasksTo(all);
        return all;
    }
}
