package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.kyma.operator.testing.Crds;

/**
 * Whatever value any flag is given, parsing either succeeds or fails with a {@link ConfigException} that names the
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
        return Stream.of(ManagerConfig.Flag.values())
                .flatMap(flag -> HOSTILE.stream().map(value -> Arguments.of(flag, value)));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("everyFlagWithEveryHostileValue")
    void parsesOrNamesTheFlag(ManagerConfig.Flag flag, String value) {
        assertThatCode(() -> {
                    try {
                        ManagerConfig.parse(new String[] {flag.flagName() + "=" + value}, Map.of());
                    } catch (ConfigException e) {
                        assertThat(e.getMessage()).contains(flag.flagName());
                    }
                })
                .doesNotThrowAnyException();
    }

    @Test
    void theNewFlagsHaveTheirDefaultsAndLimits() {
        ManagerConfig config = ManagerConfig.parse(new String[0], Map.of());
        assertThat(config.remoteResponseLimit()).isEqualTo(256L << 10);
        assertThat(config.remoteMaxInFlight()).isEqualTo(32);
        assertThat(config.remoteMaxInFlightPerServer()).isEqualTo(4);
        assertThat(config.runStatusInterval()).hasSeconds(5);
        assertThat(config.remoteServerAllow().allowsAll()).isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--remote-response-limit=512Ki"}, Map.of())
                        .remoteResponseLimit())
                .isEqualTo(512L << 10);
        assertThat(ManagerConfig.parse(new String[] {"--remote-server-allow=*.jobs.example,10.0.0.0/8"}, Map.of())
                        .remoteServerAllow()
                        .allowsAll())
                .isFalse();
    }

    @Test
    void theConfigurationPageListsEveryFlagWithItsVariableAndDefault() throws IOException {
        String readme = Files.readString(Crds.repositoryRoot().resolve("docs/configuration.md"));
        for (ManagerConfig.Flag flag : ManagerConfig.Flag.values()) {
            String defaultCell = flag.defaultValue.isEmpty() ? "(empty)" : "`" + flag.defaultValue + "`";
            assertThat(readme)
                    .as(flag.flagName())
                    .contains("| `" + flag.flagName() + "` | `" + flag.envName() + "` | " + defaultCell + " |");
        }
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
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isEqualTo(2);
        assertThat(output.lines().filter(l -> l.startsWith("kyma-operator: ")).findFirst())
                .as(output)
                .hasValueSatisfying(line -> assertThat(line).contains(named));
        assertThat(output).doesNotContain("\tat ");
    }
}
