package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class LogTailTest {
    @Test
    void aShortLogIsKeptWhole() {
        assertThat(LogTail.of("a\nb\n", false, LogTail.MAX_BYTES)).isEqualTo(new LogTail("a\nb\n", false));
        assertThat(LogTail.of("", false, LogTail.MAX_BYTES)).isEqualTo(new LogTail("", false));
    }

    @Test
    void aLogTheServiceCutLosesItsFirstLineWhichMayBeAPartOfOne() {
        assertThat(LogTail.of("tial\nwhole\n", true, LogTail.MAX_BYTES)).isEqualTo(new LogTail("whole\n", true));
        assertThat(LogTail.of("one line\n", true, LogTail.MAX_BYTES))
                .as("nothing after it: kept")
                .isEqualTo(new LogTail("one line\n", true));
        assertThat(LogTail.of("tial\n" + "x".repeat(20), true, 10)).isEqualTo(new LogTail("x".repeat(10), true));
    }

    @Test
    void aLongLogKeepsItsLastWholeLinesWithinTheBudget() {
        String log =
                IntStream.rangeClosed(1, 10_000).mapToObj(i -> "line " + i).collect(Collectors.joining("\n", "", "\n"));
        LogTail tail = LogTail.of(log, false, LogTail.MAX_BYTES);
        assertThat(tail.truncated()).isTrue();
        assertThat(tail.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(LogTail.MAX_BYTES);
        assertThat(tail.text()).endsWith("line 10000\n").startsWith("line ");
        assertThat(log).endsWith(tail.text());
    }

    @Test
    void theCutNeverSplitsACharacter() {
        String log = "é".repeat(100) + "\n" + "€".repeat(5);
        LogTail tail = LogTail.of(log, false, 11);
        assertThat(tail.truncated()).isTrue();
        assertThat(tail.text()).isEqualTo("€".repeat(3));
    }

    @Test
    void aLastLineLongerThanTheBudgetIsKeptInPart() {
        LogTail tail = LogTail.of("short\n" + "x".repeat(100), false, 10);
        assertThat(tail.text()).isEqualTo("x".repeat(10));
        assertThat(tail.truncated()).isTrue();
    }
}
