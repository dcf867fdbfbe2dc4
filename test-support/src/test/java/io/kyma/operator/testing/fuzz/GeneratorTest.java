package io.kyma.operator.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class GeneratorTest {
    private static final Generator<String> TOY = new Generator<String>()
            .weight(1, random -> "rare-" + random.below(3))
            .weight(9, random -> "common-" + random.pick("a", "b", "c"));

    @Test
    void theSameSeedMakesTheSameSequenceEveryTime() {
        for (long seed = 0; seed < 20; seed++) {
            assertThat(TOY.sequence(seed, 50)).as("seed %d", seed).isEqualTo(TOY.sequence(seed, 50));
        }
    }

    @Test
    void aLongerRunOfASeedStartsWithItsShorterRun() {
        for (long seed = 0; seed < 20; seed++) {
            assertThat(TOY.sequence(seed, 80)).startsWith(TOY.sequence(seed, 30).toArray(String[]::new));
        }
    }

    @Test
    void differentSeedsMakeDifferentSequences() {
        List<List<String>> sequences = java.util.stream.LongStream.range(0, 20)
                .mapToObj(seed -> TOY.sequence(seed, 30))
                .toList();
        assertThat(sequences).doesNotHaveDuplicates();
    }

    @Test
    void kindsAreDrawnByTheirWeights() {
        Map<Boolean, Long> byKind = TOY.sequence(7, 5000).stream()
                .collect(Collectors.partitioningBy(a -> a.startsWith("rare"), Collectors.counting()));
        // the draws are fixed by the seed, so this is no statistical test that may fail now and then
        assertThat(byKind.get(true)).isBetween(350L, 650L);
        assertThat(byKind.get(false)).isBetween(4350L, 4650L);
    }

    @Test
    void aWeightBelowOneIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Generator<String>().weight(0, r -> "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(TOY.total()).isEqualTo(10);
    }
}
