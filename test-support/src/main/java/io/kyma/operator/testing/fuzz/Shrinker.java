package io.kyma.operator.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Delta debugging over a failing sequence: drops chunks of it, halving their size whenever no chunk can go, down to
 * single actions, and keeps each shorter sequence that still fails. The result fails, and (within the budget of tries)
 * fails no more when any one of its actions is left out.
 */
public final class Shrinker {
    /** The shortest failing sequence found, and how many candidates were run to find it. */
    public record Shrunk<A>(List<A> actions, int tries) {}

    private Shrinker() {}

    /**
     * @param failing a sequence for which {@code fails} holds
     * @param fails runs a candidate sequence and tells whether it fails the same way
     * @param budget the most candidates to run
     */
    public static <A> Shrunk<A> shrink(List<A> failing, Predicate<List<A>> fails, int budget) {
        List<A> current = List.copyOf(failing);
        int tries = 0;
        if (tries < budget && !current.isEmpty()) {
            tries++;
            if (fails.test(List.of())) {
                return new Shrunk<>(List.of(), tries);
            }
        }
        int chunks = 2;
        while (current.size() >= 2 && tries < budget) {
            int size = (current.size() + chunks - 1) / chunks;
            boolean reduced = false;
            for (int from = 0; from < current.size() && tries < budget; from += size) {
                List<A> candidate = new ArrayList<>(current.subList(0, from));
                candidate.addAll(current.subList(Math.min(from + size, current.size()), current.size()));
                tries++;
                if (fails.test(List.copyOf(candidate))) {
                    current = List.copyOf(candidate);
                    chunks = Math.max(chunks - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (size == 1) {
                    break; // no single action can go
                }
                chunks = Math.min(current.size(), chunks * 2);
            }
        }
        return new Shrunk<>(current, tries);
    }
}
