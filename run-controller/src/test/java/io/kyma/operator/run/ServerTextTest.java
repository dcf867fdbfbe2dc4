package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerTextTest {
    @Test
    void aLineLosesControlCharactersAndIsCappedWithoutSplittingACharacter() {
        assertThat(ServerText.line("a\nb\u001b[31mc", 50)).isEqualTo("a b [31mc");
        assertThat(ServerText.line("x".repeat(500), 200)).hasSize(203).endsWith("x...");
        assertThat(ServerText.line("ab\uD83D\uDE00", 3)).isEqualTo("ab...");
        assertThat(ServerText.line(null, 5)).isEmpty();
    }

    @Test
    void aLogKeepsItsLinesAndTabsOnly() {
        assertThat(ServerText.log("one\ttwo\nthree\r\u0007\n")).isEqualTo("one\ttwo\nthree  \n");
    }
}
