package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.DocRegion;
import io.kyma.operator.testing.HangCatcher;

/**
 * Whatever value any flag is given, parsing either succeeds or fails with a {@link FlagException} that names the
 * flag: never another exception, which would end the process with a stack trace and exit code 1.
 */
class HostileFlagsTest {
    private static final List<String> HOSTILE = List.of(
            "",
            " ",
            "0",
            "-1",
            "NaN",
            "Infinity",
            "1e400",
            "99999999999999999999",
            "9999999999h",
            "2562048h",
            "0.5ns",
            "-1s",
            "x".repeat(10_000),
            "1".repeat(100) + "s",
            ":",
            ":99999",
            "a:b:c",
            "http://",
            "http://h:99999",
            "http://h/%zz",
            "*.",
            "10.0.0.0/99",
            "\u0000",
            "é",
            "true",
            "false",
            "1Gi",
            "99999999999Gi");

    static Stream<Arguments> everyFlagWithEveryHostileValue() {
        return ManagerConfig.FLAGS.all().stream()
                .flatMap(flag -> HOSTILE.stream().map(value -> Arguments.of(flag, value)));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("everyFlagWithEveryHostileValue")
    void parsesOrNamesTheFlag(Flag<?> flag, String value) {
        assertThatCode(() -> {
                    try {
                        ManagerConfig.parse(new String[] {flag.flagName() + "=" + value}, Map.of());
                    } catch (FlagException e) {
                        assertThat(e.getMessage()).contains(flag.flagName());
                    }
                })
                .doesNotThrowAnyException();
    }

    @Test
    void theNewFlagsHaveTheirDefaultsAndLimits() {
        ManagerConfig config = ManagerConfig.parse(new String[0], Map.of());
        assertThat(config.jobs().responseLimit()).isEqualTo(256L << 10);
        assertThat(config.jobs().maxInFlight()).isEqualTo(32);
        assertThat(config.jobs().maxInFlightPerServer()).isEqualTo(4);
        assertThat(config.jobs().statusInterval()).hasSeconds(5);
        assertThat(config.jobs().serverAllow().allowsAll()).isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--remote-response-limit=512Ki"}, Map.of())
                        .jobs()
                        .responseLimit())
                .isEqualTo(512L << 10);
        assertThat(ManagerConfig.parse(new String[] {"--remote-server-allow=*.jobs.example,10.0.0.0/8"}, Map.of())
                        .jobs()
                        .serverAllow()
                        .allowsAll())
                .isFalse();
    }

    @Test
    void theConfigurationPageHoldsTheTableGeneratedFromTheFlags() throws IOException {
        DocRegion.check(
                Crds.repositoryRoot().resolve("docs/configuration.md"),
                "<!-- table: generated from the flags of ManagerConfig -->\n",
                "<!-- end of table -->\n",
                ManagerConfig.FLAGS.markdownTable(),
                "flags.write");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--sync-period|9999999999h|--sync-period",
                "--kubeconfig|/nonexistent/kubeconfig|--kubeconfig /nonexistent/kubeconfig"
            })
    void aBadFlagEndsTheProcessWithExitCode2AndOneLineNamingIt(String flag, String value, String named)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        flag,
                        value,
                        "--metrics-bind-address",
                        "0",
                        "--health-probe-bind-address",
                        "0")
                .redirectErrorStream(true)
                .start();
        assertThat(process.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .as("a JVM that starts and stops")
                .isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isEqualTo(2);
        assertThat(output.lines().filter(l -> l.startsWith("kyma-operator: ")).findFirst())
                .as(output)
                .hasValueSatisfying(line -> assertThat(line).contains(named));
        assertThat(output).doesNotContain("\tat ");
    }
}
