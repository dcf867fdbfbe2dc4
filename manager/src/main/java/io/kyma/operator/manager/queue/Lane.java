package io.kyma.operator.manager.queue;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ObjIntConsumer;
import java.util.function.Predicate;

/**
 * One lane of the {@link PriorityWorkQueue}: a queue per flow, the flows in turn, and the head of each flow in order
 * of arrival, to find the oldest task (each flow is first in first out, so the oldest task is the oldest head). Not
 * thread-safe: the queue calls it with its lock held.
 */
final class Lane {

    /**
     * A task as queued, with its flow, when it arrived, and its order of arrival across flows ({@code seq}, which no
     * two tasks of a queue share).
     */
    record Queued(Runnable task, String flow, Instant since, long seq) {}

    private final Map<String, ArrayDeque<Queued>> byFlow = new HashMap<>();
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private final TreeSet<Queued> heads = new TreeSet<>(Comparator.comparingLong(Queued::seq));
    /** Told of each flow that comes to have tasks here (+1) or to have none left (-1). */
    private final ObjIntConsumer<String> flowChange;

    private int size;

    Lane(ObjIntConsumer<String> flowChange) {
        this.flowChange = flowChange;
    }

    /** Queues a task at the end of its flow; a flow new to the lane takes its turn after the others. */
    void add(Queued queued) {
        ArrayDeque<Queued> tasks = byFlow.get(queued.flow());
        if (tasks == null) {
            tasks = new ArrayDeque<>();
            byFlow.put(queued.flow(), tasks);
            flowChange.accept(queued.flow(), 1);
            turns.addLast(queued.flow());
            heads.add(queued);
        }
        tasks.addLast(queued);
        size++;
    }

    /** The task that has waited longest, of any flow; null if the lane is empty. */
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
     * The head of the first flow in turn that {@code mayRun} lets run; the flows passed over keep their place at the
     * front. When it lets none, the head of the flow whose turn it is.
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
                if (queued.task().equals(task)) {
                    if (tasks.peekFirst() == queued) {
                        takeHead(queued.flow());
                        if (!byFlow.containsKey(queued.flow())) {
                            turns.remove(queued.flow());
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

    /** Flows with at least one task queued here. */
    int flows() {
        return byFlow.size();
    }

    void addTasksTo(List<Runnable> all) {
        byFlow.values().forEach(tasks -> tasks.forEach(q -> all.add(q.task())));
    }
}
