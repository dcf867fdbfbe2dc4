package io.kyma.operator.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The end-state oracle for a lifecycle of ordered states, judged from what a watch saw: every object entered each state
 * once, in order, none skipped, none entered twice, none before the previous state's dwell had passed, and reached the
 * last state. It knows nothing of the objects but their names, states and transition times, so the same oracle judges
 * a run with faults and one without.
 */
public final class LifecycleOracle {
    /** One version of one object as the watch delivered it: its state and when it entered that state. */
    public record Observation(String object, String state, Instant since) {}

    /**
     * What the oracle found; each list holds one line per violation, naming the object.
     *
     * @param objects objects seen
     * @param finished objects in the last state at the end
     */
    public record Verdict(
            int objects,
            int finished,
            List<String> skipped,
            List<String> repeated,
            List<String> early,
            List<String> unfinished) {
        public boolean passed() {
            return skipped.isEmpty() && repeated.isEmpty() && early.isEmpty() && unfinished.isEmpty();
        }

        @Override
        public String toString() {
            return "objects=" + objects + " finished=" + finished + " skipped=" + skipped.size() + " repeated="
                    + repeated.size() + " early=" + early.size() + " unfinished=" + unfinished.size()
                    + (passed() ? "" : " " + first());
        }

        private String first() {
            for (List<String> list : List.of(skipped, repeated, early, unfinished)) {
                if (!list.isEmpty()) {
                    return "(first: " + list.get(0) + ")";
                }
            }
            return "";
        }
    }

    private final List<String> order;
    private final BiFunction<String, String, Duration> dwell;

    /**
     * @param order the states in the order they must be entered
     * @param dwell the least time an object stays in a state: (object, state) to duration
     */
    public LifecycleOracle(List<String> order, BiFunction<String, String, Duration> dwell) {
        this.order = List.copyOf(order);
        this.dwell = dwell;
    }

    /** @param observations in the order the watch delivered them; versions without a state are left out by the caller */
    public Verdict judge(List<Observation> observations) {
        Map<String, List<Observation>> entered = new LinkedHashMap<>();
        List<String> repeated = new ArrayList<>();
        for (Observation seen : observations) {
            List<Observation> states = entered.computeIfAbsent(seen.object(), k -> new ArrayList<>());
            Observation last = states.isEmpty() ? null : states.get(states.size() - 1);
            if (last != null && last.state().equals(seen.state())) {
                if (!Objects.equals(last.since(), seen.since())) {
                    repeated.add(seen.object() + ": " + seen.state() + " entered again at " + seen.since());
                }
                continue; // the same state written again unchanged (other fields): not a transition
            }
            states.add(seen);
        }
        List<String> skipped = new ArrayList<>();
        List<String> early = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        int finished = 0;
        for (var entry : entered.entrySet()) {
            String object = entry.getKey();
            List<Observation> states = entry.getValue();
            int expected = 0;
            for (int i = 0; i < states.size(); i++) {
                Observation now = states.get(i);
                int index = order.indexOf(now.state());
                if (index != expected) {
                    (index < expected ? repeated : skipped)
                            .add(object + ": " + now.state() + " after "
                                    + (i == 0 ? "nothing" : states.get(i - 1).state()));
                }
                if (i > 0 && now.since() != null && states.get(i - 1).since() != null) {
                    Observation before = states.get(i - 1);
                    Duration took = Duration.between(before.since(), now.since());
                    Duration least = dwell.apply(object, before.state());
                    if (took.compareTo(least) < 0) {
                        early.add(object + ": left " + before.state() + " after " + took + ", before its " + least);
                    }
                }
                expected = index + 1;
            }
            if (states.get(states.size() - 1).state().equals(order.get(order.size() - 1))) {
                finished++;
            } else {
                unfinished.add(
                        object + ": ended in " + states.get(states.size() - 1).state());
            }
        }
        return new Verdict(entered.size(), finished, skipped, repeated, early, unfinished);
    }
}
