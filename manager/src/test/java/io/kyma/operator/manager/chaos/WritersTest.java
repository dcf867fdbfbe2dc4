package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class WritersTest {
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private static Writers.Write write(String writer, long startMillis, long endMillis) {
        return new Writers.Write(writer, T0.plusMillis(startMillis), T0.plusMillis(endMillis));
    }

    @Test
    void handoversWithGapsPassAndTheGapsAreMeasured() {
        Writers.Verdict verdict = Writers.judge(List.of(
                write("r1#1", 0, 10),
                write("r1#1", 500, 520),
                write("r2#1", 16_000, 16_010),
                write("r2#1", 17_000, 17_020),
                write("r3#1", 40_000, 40_030)));

        assertThat(verdict.passed()).isTrue();
        assertThat(verdict.terms()).extracting(Writers.Term::writer).containsExactly("r1#1", "r2#1", "r3#1");
        assertThat(verdict.writes()).isEqualTo(5);
        assertThat(verdict.leastGap()).isEqualTo(Duration.ofMillis(15_480));
        assertThat(verdict.longestGap()).isEqualTo(Duration.ofMillis(22_980));
    }

    @Test
    void writesArriveInAnyOrderAndAreJudgedByWhenTheyBegan() {
        Writers.Verdict verdict = Writers.judge(List.of(write("r2#1", 16_000, 16_010), write("r1#1", 0, 10)));

        assertThat(verdict.terms()).extracting(Writers.Term::writer).containsExactly("r1#1", "r2#1");
        assertThat(verdict.passed()).isTrue();
    }

    @Test
    void aNewWriterBeginningBeforeTheOldOnesLastWriteEndedOverlaps() {
        Writers.Verdict verdict = Writers.judge(List.of(write("r1#1", 0, 300), write("r2#1", 100, 120)));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.overlapping())
                .singleElement()
                .asString()
                .contains("r1#1 wrote until")
                .contains("r2#1 from");
        assertThat(verdict.leastGap()).isNegative();
    }

    @Test
    void anOldWriterThatWritesAgainAfterANewOneIsInterleaved() {
        Writers.Verdict verdict = Writers.judge(List.of(
                write("r1#1", 0, 10),
                write("r2#1", 1_000, 1_010),
                write("r1#1", 2_000, 2_010),
                write("r2#1", 3_000, 3_010)));

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.interleaved()).containsExactly("r1#1", "r2#1");
        assertThat(verdict.overlapping()).isEmpty();
    }

    @Test
    void oneWriterIsOneTermWithoutGaps() {
        Writers.Verdict verdict = Writers.judge(List.of(write("r1#1", 0, 10), write("r1#1", 20, 30)));

        assertThat(verdict.terms()).hasSize(1);
        assertThat(verdict.leastGap()).isNull();
        assertThat(verdict.passed()).isTrue();
        assertThat(Writers.judge(List.of()).terms()).isEmpty();
    }
}
