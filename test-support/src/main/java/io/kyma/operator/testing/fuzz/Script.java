package io.kyma.operator.testing.fuzz;

import java.util.List;
import java.util.stream.Collectors;

/** A failing sequence as text a person can read and run again. */
public final class Script {
    private Script() {}

    /**
     * @param seed the seed whose sequence this is (a part of it, after shrinking)
     * @param kept the positions of the printed actions in the seed's sequence, from 0
     * @param actions the printed actions, in order
     * @param violations what the sequence broke
     * @param replay how to run exactly this sequence again
     */
    public static String render(
            long seed,
            List<Integer> kept,
            List<? extends Action<?>> actions,
            List<Violation> violations,
            String replay) {
        StringBuilder text = new StringBuilder();
        text.append("# seed ").append(seed).append(": ").append(actions.size()).append(" action(s)\n");
        for (Violation violation : violations) {
            text.append("# violated ").append(violation).append('\n');
        }
        text.append("# replay: ").append(replay).append('\n');
        text.append("# kept: ")
                .append(kept.stream().map(String::valueOf).collect(Collectors.joining(",")))
                .append('\n');
        for (int i = 0; i < actions.size(); i++) {
            text.append(actions.get(i).script())
                    .append("   # ")
                    .append(kept.get(i))
                    .append('\n');
        }
        return text.toString();
    }
}
