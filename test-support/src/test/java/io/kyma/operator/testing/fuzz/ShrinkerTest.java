package io.kyma.operator.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ShrinkerTest {
    /** Fails when the sequence holds {@code first} and later {@code second}: a bug that needs two actions in order. */
    private static Predicate<List<Integer>> needs(int first, int second) {
        return sequence -> {
            int at = sequence.indexOf(first);
            return at >= 0 && sequence.subList(at + 1, sequence.size()).contains(second);
        };
    }

    @Test
    void aFailureThatNeedsTwoActionsInOrderShrinksToThoseTwo() {
        for (long seed = 0; seed < 30; seed++) {
            Seeded random = new Seeded(seed);
            int length = random.between(10, 200);
            List<Integer> sequence = new ArrayList<>(IntStream.range(0, length)
                    .mapToObj(i -> 100 + random.below(50))
                    .toList());
            int first = random.below(length - 1);
            int second = random.between(first + 1, length - 1);
            sequence.set(first, 1);
            sequence.set(second, 2);
            Predicate<List<Integer>> fails = needs(1, 2);

            Shrinker.Shrunk<Integer> shrunk = Shrinker.shrink(sequence, fails, 400);

            assertThat(shrunk.actions()).as("seed %d, length %d", seed, length).containsExactly(1, 2);
            assertThat(shrunk.tries()).isLessThanOrEqualTo(400);
        }
    }

    @Test
    void theResultFailsAndFailsNoMoreWithoutAnyOneOfItsActions() {
        for (long seed = 0; seed < 30; seed++) {
            Seeded random = new Seeded(seed);
            List<Integer> sequence =
                    IntStream.range(0, 120).mapToObj(i -> random.below(12)).toList();
            // fails when at least three distinct values below 3 occur: the minimal sequences have exactly three
            Predicate<List<Integer>> fails =
                    s -> s.stream().filter(v -> v < 3).distinct().count() == 3;
            if (!fails.test(sequence)) {
                continue;
            }
            List<Integer> shrunk = Shrinker.shrink(sequence, fails, 400).actions();
            assertThat(fails.test(shrunk)).isTrue();
            for (int i = 0; i < shrunk.size(); i++) {
                List<Integer> without = new ArrayList<>(shrunk);
                without.remove(i);
                assertThat(fails.test(without))
                        .as("%s without position %d", shrunk, i)
                        .isFalse();
            }
            assertThat(shrunk).hasSize(3);
        }
    }

    @Test
    void theBudgetBoundsTheCandidatesRun() {
        List<Integer> sequence = IntStream.range(0, 500).boxed().toList();
        int[] runs = {0};
        Shrinker.Shrunk<Integer> shrunk = Shrinker.shrink(
                sequence,
                s -> {
                    runs[0]++;
                    return s.contains(250) && s.contains(499);
                },
                25);
        assertThat(runs[0]).isEqualTo(shrunk.tries()).isLessThanOrEqualTo(25);
        assertThat(shrunk.actions()).contains(250, 499);
    }

    @Test
    void aFailureWithoutAnyActionShrinksToNothing() {
        assertThat(Shrinker.shrink(List.of(1, 2, 3), s -> true, 10).actions()).isEmpty();
    }
}
