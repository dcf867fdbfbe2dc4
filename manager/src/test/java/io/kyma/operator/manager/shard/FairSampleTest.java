package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.limits.FairShares;

class FairSampleTest {

    @Test
    void theNamespacesWithFewItemsTakeAllOfThemAndTheOthersSplitWhatIsLeft() {
        assertThat(FairShares.maxMin(Map.of("noisy", 10_000, "quiet", 3, "middle", 40), 100, new Random(1)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("quiet", 3, "middle", 40, "noisy", 57));
        assertThat(FairShares.maxMin(Map.of("a", 1000, "b", 1000, "c", 1000), 100, new Random(1))
                        .values())
                .containsExactlyInAnyOrder(33, 33, 34);
        assertThat(FairShares.maxMin(Map.of("a", 5, "b", 7), 100, new Random(1)))
                .as("room for all")
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", 5, "b", 7));
    }

    @Test
    void withMoreNamespacesThanPlacesEachHasTheSameChance() {
        Map<String, Integer> oneEach = new HashMap<>();
        IntStream.range(0, 200).forEach(i -> oneEach.put("ns-" + i, 1));
        Map<String, Integer> chosen = new HashMap<>();
        Random random = new Random(3);
        for (int draw = 0; draw < 200; draw++) {
            Map<String, Integer> quotas = FairShares.maxMin(oneEach, 100, random);
            assertThat(quotas.values().stream().mapToInt(Integer::intValue).sum())
                    .isEqualTo(100);
            quotas.forEach((ns, quota) -> chosen.merge(ns, quota, Integer::sum));
        }
        assertThat(chosen.values()).allSatisfy(n -> assertThat(n).isBetween(60, 140));
    }

    @Test
    void aQuietNamespacesItemsAreAlwaysPickedWhateverTheOrderOfTheRead() {
        for (int seed = 0; seed < 20; seed++) {
            FairSample<String> sample = new FairSample<>(
                    FairShares.maxMin(Map.of("noisy", 10_000, "quiet", 2), 100, new Random(seed)), new Random(seed));
            sample.offer("quiet", "quiet-0");
            IntStream.range(0, 10_000).forEach(i -> sample.offer("noisy", "noisy-" + i));
            sample.offer("quiet", "quiet-1");
            sample.offer("unseen-at-the-first-read", "late");
            assertThat(sample.picked())
                    .hasSize(100)
                    .contains("quiet-0", "quiet-1")
                    .doesNotContain("late");
        }
    }

    @Test
    void withinANamespaceEveryItemHasAChance() {
        int[] picked = new int[10];
        Random random = new Random(7);
        for (int draw = 0; draw < 2000; draw++) {
            FairSample<Integer> sample = new FairSample<>(Map.of("ns", 1), random);
            IntStream.range(0, 10).forEach(i -> sample.offer("ns", i));
            picked[sample.picked().get(0)]++;
        }
        assertThat(IntStream.of(picked).boxed().toList())
                .allSatisfy(n -> assertThat(n).isBetween(120, 280));
    }
}
