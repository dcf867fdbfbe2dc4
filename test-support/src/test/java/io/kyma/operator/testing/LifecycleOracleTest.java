package io.kyma.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.LifecycleOracle.Observation;

class LifecycleOracleTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final LifecycleOracle oracle = new LifecycleOracle(
            List.of("pending", "started", "failing", "success"),
            (object, state) -> state.equals("pending") ? Duration.ofSeconds(1) : Duration.ofSeconds(3));

    @Test
    void aCleanWalkPasses() {
        var verdict = oracle.judge(walk("a", 0, 1, 4, 7));
        assertThat(verdict.passed()).as(verdict.toString()).isTrue();
        assertThat(verdict.finished()).isEqualTo(1);
    }

    @Test
    void rewritingAStateUnchangedIsNoTransitionButEnteringItAgainIsRepeated() {
        List<Observation> seen = new ArrayList<>(walk("a", 0, 1, 4, 7));
        seen.add(2, new Observation("a", "started", T0.plusSeconds(1)));
        assertThat(oracle.judge(seen).passed()).isTrue();
        seen.add(3, new Observation("a", "started", T0.plusSeconds(2)));
        assertThat(oracle.judge(seen).repeated()).singleElement().asString().contains("started entered again");
    }

    @Test
    void skippedEarlyBackwardsAndUnfinishedAreEachNamed() {
        List<Observation> seen = new ArrayList<>();
        seen.add(new Observation("skip", "pending", T0));
        seen.add(new Observation("skip", "failing", T0.plusSeconds(5)));
        seen.add(new Observation("skip", "success", T0.plusSeconds(9)));
        seen.addAll(walk("early", 0, 1, 2, 9));
        seen.add(new Observation("back", "pending", T0));
        seen.add(new Observation("back", "started", T0.plusSeconds(1)));
        seen.add(new Observation("back", "pending", T0.plusSeconds(5)));
        seen.add(new Observation("stuck", "pending", T0));
        var verdict = oracle.judge(seen);
        assertThat(verdict.skipped()).singleElement().asString().startsWith("skip: failing after pending");
        assertThat(verdict.early()).singleElement().asString().startsWith("early: left started after PT1S");
        assertThat(verdict.repeated()).singleElement().asString().startsWith("back: pending after started");
        assertThat(verdict.unfinished()).containsExactly("back: ended in pending", "stuck: ended in pending");
        assertThat(verdict.objects()).isEqualTo(4);
        assertThat(verdict.finished()).isEqualTo(2);
        assertThat(verdict.passed()).isFalse();
    }

    private static List<Observation> walk(String object, int... seconds) {
        String[] states = {"pending", "started", "failing", "success"};
        List<Observation> seen = new ArrayList<>();
        for (int i = 0; i < seconds.length; i++) {
            seen.add(new Observation(object, states[i], T0.plusSeconds(seconds[i])));
        }
        return seen;
    }
}
