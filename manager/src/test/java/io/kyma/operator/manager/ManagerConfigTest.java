package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ManagerConfigTest {
    @Test
    void defaultsApplyWithoutFlagsOrEnvironment() {
        ManagerConfig config = ManagerConfig.parse(new String[0], Map.of());
        assertThat(config.kubeconfig()).isEmpty();
        assertThat(config.namespace()).isEmpty();
        assertThat(config.transitionUnit()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.kymaStatusInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.maxConcurrentReconciles()).isEqualTo(50);
        assertThat(config.logLevel()).isEqualTo("info");
    }

    @Test
    void flagsInBothFormsWinOverTheEnvironment() {
        ManagerConfig config = ManagerConfig.parse(
                new String[] { "--transition-unit=50ms", "--namespace", "pb", "--max-concurrent-reconciles", "100" },
                Map.of("KYMA_OPERATOR_TRANSITION_UNIT", "2s", "KYMA_OPERATOR_KUBECONFIG", "/tmp/kc",
                        "KYMA_OPERATOR_LOG_LEVEL", "DEBUG"));
        assertThat(config.transitionUnit()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.namespace()).isEqualTo(Optional.of("pb"));
        assertThat(config.maxConcurrentReconciles()).isEqualTo(100);
        assertThat(config.kubeconfig()).contains("/tmp/kc");
        assertThat(config.logLevel()).isEqualTo("debug");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--transition-unit=5x|--transition-unit",
            "--transition-unit=0s|--transition-unit must be greater than 0",
            "--kyma-status-interval=-1s|--kyma-status-interval",
            "--max-concurrent-reconciles=0|--max-concurrent-reconciles must be at least 1",
            "--max-concurrent-reconciles=many|--max-concurrent-reconciles: not a whole number",
            "--log-level=loud|--log-level must be one of",
            "--no-such-flag=1|unknown flag --no-such-flag",
            "--namespace|--namespace needs a value",
            "stray|unexpected argument 'stray'" })
    void badValuesAreRejectedNamingTheFlag(String arg, String message) {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] { arg }, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(message);
    }

    @Test
    void badEnvironmentValuesNameTheFlagToo() {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_KYMA_STATUS_INTERVAL", "soon")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--kyma-status-interval");
    }

    @Test
    void helpListsEveryFlagWithItsVariableAndDefault() {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] { "--namespace", "x", "--help" }, Map.of()))
                .isInstanceOf(ManagerConfig.HelpRequested.class);
        String usage = ManagerConfig.usage();
        for (ManagerConfig.Flag flag : ManagerConfig.Flag.values()) {
            assertThat(usage).contains(flag.flagName(), flag.envName(), "default \"" + flag.defaultValue + "\"");
        }
    }

    @Test
    void theEffectiveConfigurationNamesEveryValue() {
        assertThat(ManagerConfig.parse(new String[] { "--transition-unit", "10ms" }, Map.of()).describe())
                .isEqualTo("kubeconfig=<default> namespace=<all> transition-unit=10ms kyma-status-interval=5s "
                        + "max-concurrent-reconciles=50 log-level=info");
    }
}
