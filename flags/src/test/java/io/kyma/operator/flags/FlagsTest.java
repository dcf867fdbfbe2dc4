package io.kyma.operator.flags;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class FlagsTest {
    private static final Flag<Integer> WORKERS =
            Flag.of("workers", "4", "Worker threads (1 to 64).", Parsers.integer(1, 64));
    private static final Flag<Optional<String>> NAME =
            Flag.of("name", "", "A name; empty means none.", Parsers.optional(Parsers.text()));
    private static final Flag<Boolean> VERBOSE = Flag.ofSwitch("verbose", "false", "Say more.");
    private static final Flags WITH_ENV = Flags.withEnvironment("APP_", List.of(WORKERS, NAME, VERBOSE));
    private static final Flags PLAIN = Flags.of(List.of(WORKERS, NAME, VERBOSE));

    @Test
    void aFlagWinsOverItsVariableWhichWinsOverTheDefault() {
        assertThat(WITH_ENV.parse(new String[0], Map.of()).get(WORKERS)).isEqualTo(4);
        assertThat(WITH_ENV.parse(new String[0], Map.of("APP_WORKERS", "8")).get(WORKERS))
                .isEqualTo(8);
        assertThat(WITH_ENV.parse(new String[] {"--workers", "9"}, Map.of("APP_WORKERS", "8"))
                        .get(WORKERS))
                .isEqualTo(9);
        assertThat(WITH_ENV.parse(new String[] {"--workers=10"}, Map.of()).get(WORKERS))
                .isEqualTo(10);
    }

    @Test
    void withoutAPrefixVariablesAreNotRead() {
        assertThat(PLAIN.parse(new String[0], Map.of("APP_WORKERS", "8", "WORKERS", "8"))
                        .get(WORKERS))
                .isEqualTo(4);
        assertThat(PLAIN.envName(WORKERS)).isEmpty();
        assertThat(WITH_ENV.envName(WORKERS)).contains("APP_WORKERS");
    }

    @Test
    void aSwitchAloneMeansTrueAndTakesAValueOnlyWhenOneFollows() {
        assertThat(PLAIN.parse(new String[] {"--verbose"}, Map.of()).get(VERBOSE))
                .isTrue();
        assertThat(PLAIN.parse(new String[] {"--verbose", "--workers", "2"}, Map.of())
                        .get(VERBOSE))
                .isTrue();
        assertThat(PLAIN.parse(new String[] {"--verbose", "false"}, Map.of()).get(VERBOSE))
                .isFalse();
        assertThat(PLAIN.parse(new String[] {"--verbose=FALSE"}, Map.of()).get(VERBOSE))
                .isFalse();
        assertThat(PLAIN.parse(new String[0], Map.of()).get(VERBOSE)).isFalse();
    }

    @Test
    void whetherAFlagWasGivenIsKnownEvenWithTheDefaultsValue() {
        assertThat(WITH_ENV.parse(new String[0], Map.of()).given(WORKERS)).isFalse();
        assertThat(WITH_ENV.parse(new String[] {"--workers", "4"}, Map.of()).given(WORKERS))
                .isTrue();
        assertThat(WITH_ENV.parse(new String[0], Map.of("APP_WORKERS", "4")).given(WORKERS))
                .isTrue();
    }

    @Test
    void everyValueIsParsedEvenOneNothingReads() {
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--workers", "0"}, Map.of()))
                .isInstanceOf(FlagException.class)
                .hasMessage("invalid value '0' for --workers: must be at least 1, got 0");
        assertThatThrownBy(() -> WITH_ENV.parse(new String[0], Map.of("APP_WORKERS", "many")))
                .isInstanceOf(FlagException.class)
                .hasMessage("invalid value 'many' for --workers: not a number");
    }

    @Test
    void unknownFlagsStrayArgumentsAndMissingValuesAreRefusedByName() {
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--threads", "2"}, Map.of()))
                .isInstanceOf(FlagException.class)
                .hasMessageContaining("unknown flag --threads");
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"two"}, Map.of()))
                .isInstanceOf(FlagException.class)
                .hasMessageContaining("unexpected argument 'two'");
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--workers"}, Map.of()))
                .isInstanceOf(FlagException.class)
                .hasMessage("--workers needs a value");
    }

    @Test
    void helpWinsWhereverItStandsAndTheRestFollowsTheDoubleDash() {
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--workers", "0", "-h"}, Map.of()))
                .isInstanceOf(HelpRequested.class);
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--name", "x", "--help"}, Map.of()))
                .isInstanceOf(HelpRequested.class);
        Flags.Values values =
                Flags.withRest(List.of(WORKERS)).parse(new String[] {"--workers", "2", "--", "--other", "x"}, Map.of());
        assertThat(values.rest()).containsExactly("--other", "x");
        assertThat(values.get(WORKERS)).isEqualTo(2);
        assertThatThrownBy(() -> PLAIN.parse(new String[] {"--workers", "2", "--", "--other"}, Map.of()))
                .as("a program that hands nothing on takes no --")
                .isInstanceOf(FlagException.class)
                .hasMessageContaining("unexpected argument '--'");
    }

    @Test
    void theUsageAndTheTableNameEveryFlagItsVariableAndDefault() {
        String usage = WITH_ENV.usage("Usage: app [flags]");
        assertThat(usage)
                .startsWith("Usage: app [flags]\n\nFlags:\n")
                .contains("--workers value")
                .contains("(env APP_WORKERS, default \"4\")")
                .contains("--verbose ")
                .doesNotContain("--verbose value");
        assertThat(PLAIN.usage("Usage: app")).contains("(default \"4\")").doesNotContain("env ");
        assertThat(WITH_ENV.markdownTable())
                .startsWith("| flag | environment variable | default | meaning |\n|---|---|---|---|\n")
                .contains("| `--workers` | `APP_WORKERS` | `4` | Worker threads (1 to 64). |\n")
                .contains("| `--name` | `APP_NAME` | (empty) |");
        assertThat(PLAIN.markdownTable()).contains("| `--workers` | `4` | Worker threads (1 to 64). |\n");
    }

    @Test
    void aFlagIsDefinedOnceWithAWellFormedName() {
        assertThatThrownBy(() -> Flags.of(List.of(WORKERS, WORKERS))).hasMessageContaining("defined twice");
        assertThatThrownBy(() -> Flag.of("Workers", "1", "", Parsers.text())).hasMessageContaining("lower-case");
    }

    @Test
    void numbersAreFiniteAndWithinTheirRange() {
        assertThatThrownBy(() -> Parsers.number().apply("NaN")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> Parsers.number().apply("1e400")).isInstanceOf(NumberFormatException.class);
        assertThat(Parsers.number(0, 1).apply("0.5")).isEqualTo(0.5);
        assertThatThrownBy(() -> Parsers.number(0, 1).apply("1.5")).hasMessage("must be from 0 to 1, got 1.5");
        assertThatThrownBy(() -> Parsers.positiveNumber().apply("0")).hasMessage("must be greater than 0");
        assertThat(Parsers.oneOf(List.of("info", "debug")).apply("INFO")).isEqualTo("info");
    }
}
