package io.kyma.operator.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {
    @ParameterizedTest
    @CsvSource({
        "500ms,PT0.5S",
        "5s,PT5S",
        "1m30s,PT1M30S",
        "1h,PT1H",
        "1.5s,PT1.5S",
        "10h,PT10H",
        "250us,PT0.00025S",
        "0s,PT0S",
        "2h45m,PT2H45M"
    })
    void parsesGoNotation(String text, Duration expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "5 s", "-1s", "1d", "s", "1.s", "PT5S"})
    void rejectsAnythingElseNamingTheForm(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a duration such as 500ms");
    }

    @ParameterizedTest
    @CsvSource({"PT0S,0s", "PT0.01S,10ms", "PT1S,1s", "PT1M30S,1m30s", "PT10H,10h", "PT1.5S,1.5s", "PT0.00025S,250us"})
    void formatsLikeGo(Duration duration, String expected) {
        assertThat(GoDuration.format(duration)).isEqualTo(expected);
        assertThat(GoDuration.parse(expected)).isEqualTo(duration);
    }

    /** The one formatter of durations for statuses and logs keeps every millisecond: 2,500 ms is 2.5s, not 2s. */
    @Test
    void everyMillisecondSurvivesFormattingAndParsingBack() {
        java.util.Random random = new java.util.Random(55);
        for (int i = 0; i < 20_000; i++) {
            long millis = switch (i % 4) {
                case 0 -> i;
                case 1 -> random.nextInt(60_000);
                case 2 -> random.nextInt(3_600_000);
                default -> Math.floorMod(random.nextLong(), 1_000_000_000_000L);
            };
            Duration duration = Duration.ofMillis(millis);
            assertThat(GoDuration.parse(GoDuration.format(duration)))
                    .as("%d ms as %s", millis, GoDuration.format(duration))
                    .isEqualTo(duration);
        }
        assertThat(GoDuration.format(Duration.ofMillis(2500))).isEqualTo("2.5s");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2562048h",
                "9999999999999999999h",
                "106751992d",
                "300000000000000000000ns",
                "2562047h47m16.854775808s"
            })
    void rejectsWhatOverflowsGosRangeAsAnArgumentError(String text) {
        assertThatThrownBy(() -> GoDuration.parse(text.replace("d", "h")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than the longest duration, 2562047h47m16.854s");
    }

    @ParameterizedTest
    @CsvSource({"0.5ns,PT0S", "1.9ns,PT0.000000001S", "2562047h47m16.854775807s,PT2562047H47M16.854775807S"})
    void dropsFractionsOfANanosecondAndAcceptsTheLongestDuration(String text, Duration expected) {
        assertThat(GoDuration.parse(text)).isEqualTo(expected);
    }

    @Test
    void aHugeInputIsRejectedWithoutEchoingAllOfIt() {
        String huge = "1".repeat(100_000) + "s";
        assertThatThrownBy(() -> GoDuration.parse(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
    }
}
