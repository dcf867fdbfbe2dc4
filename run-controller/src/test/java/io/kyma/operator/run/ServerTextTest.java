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

    @Test
    void textIsMadeAsTheApiServerStoresItSoThatItComparesEqualAfterAWrite() {
        assertThat(ServerText.line("a\uD800b", 50)).as("a lone surrogate").isEqualTo("a\uFFFDb");
        assertThat(ServerText.log("x\uDC00")).isEqualTo("x\uFFFD");
        assertThat(ServerText.line("ok \uD83D\uDE00", 50)).as("a pair stays").isEqualTo("ok \uD83D\uDE00");
    }

    @Test
    void bidirectionalOverridesZeroWidthAndUnicodeLineBreaksBecomeSpaces() {
        assertThat(ServerText.line("safe\u202Etxt.exe\u202C", 50)).isEqualTo("safe txt.exe ");
        assertThat(ServerText.log("a\u2066b\u2069c\u200Bd\u2028e\u2029f")).isEqualTo("a b c d e f");
        assertThat(ServerText.line("\uDB40\uDC01tag", 50))
                .as("a format character beyond the BMP")
                .isEqualTo(" tag");
    }
}
