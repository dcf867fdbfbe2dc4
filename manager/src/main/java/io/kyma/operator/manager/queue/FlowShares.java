package io.kyma.operator.manager.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The workers each flow holds, and the share of them a flow may hold while a flow below its share has work in the
 * same lane: the workers divided among the flows that run or wait, as the API server's fair queuing gives each flow
 * its seats. A namespace whose reconciles run long so cannot come to hold every worker while another namespace's
 * work waits. Not thread-safe: the {@link PriorityWorkQueue} calls it with its lock held.
 */
final class FlowShares {
    /**
     * Each flow that runs or waits, with how many of the two (its tasks running, and the lanes it has tasks in): kept
     * as they change, so that a share costs no pass over the flows.
     */
    private final Map<String, Integer> active = new HashMap<>();
    /** Workers held, by flow. */
    private final Map<String, Integer> running = new HashMap<>();
    /** The workers of the pool; 0 until the pool says (then no flow is held to a share). */
    private int workers;

    void workers(int count) {
        workers = count;
    }

    /** A worker started a task of {@code flow}. */
    void started(String flow) {
        running.merge(flow, 1, Integer::sum);
        activity(flow, 1);
    }

    /** A worker ended a task of {@code flow}; one it was not told had started is ignored. */
    void ended(String flow) {
        if (running.containsKey(flow)) {
            running.computeIfPresent(flow, (f, n) -> n > 1 ? n - 1 : null);
            activity(flow, -1);
        }
    }

    /** Counts a flow's activity up or down: a lane tells it of each flow that comes to have tasks or has none left. */
    void activity(String flow, int change) {
        active.merge(flow, change, (was, by) -> was + by == 0 ? null : was + by);
    }

    /**
     * Whether a flow is below its share, as the share is now: what a lane polls with ({@link Lane#poll(Predicate)}).
     * Every flow is, while the workers are not known or none runs.
     */
    Predicate<String> belowShare() {
        int share = share();
        return flow -> running.getOrDefault(flow, 0) < share;
    }

    /** The workers a flow may hold while a flow below its share has work in the same lane. */
    int share() {
        if (workers <= 0 || running.isEmpty()) {
            return Integer.MAX_VALUE;
        }
        return (workers + active.size() - 1) / active.size();
    }
}
