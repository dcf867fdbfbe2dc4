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
        assertThat(config.failureBaseDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.failureMaxDelay()).isEqualTo(Duration.ofSeconds(1000));
        assertThat(config.rateLimiterFrequency()).isEqualTo(30.0);
        assertThat(config.rateLimiterBurst()).isEqualTo(200);
        assertThat(config.maxReconcileRate()).isZero();
        assertThat(config.k8sClientQps()).isEqualTo(150.0);
        assertThat(config.k8sClientBurst()).isEqualTo(150);
        assertThat(config.syncPeriod()).isEqualTo(Duration.ofHours(10));
        assertThat(config.reconcileTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.metricsBindAddress()).contains(new ManagerConfig.BindAddress("0.0.0.0", 8080));
        assertThat(config.healthProbeBindAddress()).contains(new ManagerConfig.BindAddress("0.0.0.0", 8081));
    }

    @Test
    void zeroTurnsTheEndpointsAndTheClientLimiterOff() {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {
                    "--metrics-bind-address=0", "--health-probe-bind-address", "127.0.0.1:0", "--k8s-client-qps=-1"
                },
                Map.of());
        assertThat(config.metricsBindAddress()).isEmpty();
        assertThat(config.healthProbeBindAddress()).contains(new ManagerConfig.BindAddress("127.0.0.1", 0));
        assertThat(config.k8sClientQps()).isNegative();
    }

    @Test
    void flagsInBothFormsWinOverTheEnvironment() {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {"--transition-unit=50ms", "--namespace", "pb", "--max-concurrent-reconciles", "100"},
                Map.of(
                        "KYMA_OPERATOR_TRANSITION_UNIT",
                        "2s",
                        "KYMA_OPERATOR_KUBECONFIG",
                        "/tmp/kc",
                        "KYMA_OPERATOR_LOG_LEVEL",
                        "DEBUG"));
        assertThat(config.transitionUnit()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.namespace()).isEqualTo(Optional.of("pb"));
        assertThat(config.maxConcurrentReconciles()).isEqualTo(100);
        assertThat(config.kubeconfig()).contains("/tmp/kc");
        assertThat(config.logLevel()).isEqualTo("debug");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--transition-unit=5x|--transition-unit",
                "--transition-unit=0s|--transition-unit must be greater than 0",
                "--kyma-status-interval=-1s|--kyma-status-interval",
                "--max-concurrent-reconciles=0|--max-concurrent-reconciles must be at least 1",
                "--max-concurrent-reconciles=many|--max-concurrent-reconciles: not a number",
                "--log-level=loud|--log-level must be one of",
                "--no-such-flag=1|unknown flag --no-such-flag",
                "--namespace|--namespace needs a value",
                "stray|unexpected argument 'stray'",
                "--failure-base-delay=0s|--failure-base-delay must be greater than 0",
                "--rate-limiter-frequency=0|--rate-limiter-frequency must be greater than 0",
                "--rate-limiter-burst=0|--rate-limiter-burst must be at least 1",
                "--k8s-client-qps=fast|--k8s-client-qps: not a number",
                "--sync-period=1d|--sync-period",
                "--reconcile-timeout=never|--reconcile-timeout",
                "--metrics-bind-address=8080|--metrics-bind-address",
                "--health-probe-bind-address=:70000|--health-probe-bind-address: port 70000 is out of range",
                "--remote-server-url=ftp://host|--remote-server-url: the scheme must be http or https",
                "--failure-max-delay=500ms|--failure-max-delay must not be shorter than --failure-base-delay",
                "--namespace=Team_A|--namespace: 'Team_A' is not a namespace name",
                "--remote-response-limit=1Ki|--remote-response-limit: must be from 64Ki",
                "--shards=0|--shards must be at least 1",
                "--shard-id=3|--shard-id must be below --shards (1), got 3",
                "--shard-id=kyma-operator|--shard-id: 'kyma-operator' is neither a number from 0 nor a pod name ending in -N",
                "--shard-id=-1|--shard-id: '-1' is neither a number from 0 nor a pod name ending in -N",
                "--shards=65|--shards must be at most 64, got 65",
                "--remote-server-allow=jobs_example|--remote-server-allow: 'jobs_example' is not a host name",
                "--sync-period=9999999999h|--sync-period: '9999999999h' is longer than the longest duration",
                "--run-poll-interval=0s|--run-poll-interval must be greater than 0",
                "--run-cleanup-timeout=forever|--run-cleanup-timeout",
                "--leader-elect=maybe|--leader-elect must be true or false",
                "--leader-election-id=Kyma_Lease|--leader-election-id",
                "--leader-election-lease-duration=10s|--leader-election-lease-duration must be longer than --leader-election-renew-deadline, got 10s and 10s",
                "--leader-election-retry-period=9s|--leader-election-renew-deadline must be longer than 1.2 times --leader-election-retry-period, got 10s and 9s",
                "--leader-election-lease-duration=10500ms|--leader-election-lease-duration must be whole seconds (the Lease stores seconds), got 10500ms",
                "--leader-election-renew-deadline=0s|--leader-election-renew-deadline must be greater than 0",
                "--max-concurrent-reconciles=100000|--max-concurrent-reconciles must be at most 1024",
                "--k8s-client-burst=2000000|--k8s-client-burst must be at most 1000000",
                "--max-reconcile-rate=-1|--max-reconcile-rate must be 0 or more",
                "--informer-list-limit=1000000|--informer-list-limit must be at most 100000"
            })
    void badValuesAreRejectedNamingTheFlag(String arg, String message) {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {arg}, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aShardIsANumberOrAStatefulSetPodsOrdinalAndHasItsOwnLease() {
        ManagerConfig pod =
                ManagerConfig.parse(new String[] {"--shards", "3", "--shard-id", "kyma-operator-2"}, Map.of());
        assertThat(pod.shards().count()).isEqualTo(3);
        assertThat(pod.shards().id()).isEqualTo(2);
        assertThat(pod.leaseName()).isEqualTo("kyma-operator-leader-shard-2");
        ManagerConfig env =
                ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_SHARDS", "2", "KYMA_OPERATOR_SHARD_ID", "1"));
        assertThat(env.shards().selector()).isEqualTo("kyma-project.io/shard=1");
        ManagerConfig one = ManagerConfig.parse(new String[0], Map.of());
        assertThat(one.shards().sharded()).isFalse();
        assertThat(one.leaseName())
                .as("unsharded: the Lease of earlier releases")
                .isEqualTo("kyma-operator-leader");
    }

    @Test
    void theDefaultLeaseIsOnePerWatchedNamespaceAndEveryShardsLeaseNameFits() {
        assertThat(ManagerConfig.parse(new String[] {"--namespace", "team-a"}, Map.of())
                        .leaseName())
                .isEqualTo("kyma-operator-leader-team-a");
        assertThat(ManagerConfig.parse(
                                new String[] {"--namespace", "team-a", "--shards", "2", "--shard-id", "1"}, Map.of())
                        .leaseName())
                .isEqualTo("kyma-operator-leader-team-a-shard-1");
        assertThat(ManagerConfig.parse(new String[] {"--namespace", "team-a", "--leader-election-id", "mine"}, Map.of())
                        .leaseName())
                .as("a name given is kept")
                .isEqualTo("mine");
        assertThat(ManagerConfig.parse(
                                new String[] {"--namespace", "team-a", "--leader-election-id", "kyma-operator-leader"},
                                Map.of())
                        .leaseName())
                .as("the name of earlier releases, given to keep it through an upgrade")
                .isEqualTo("kyma-operator-leader");
        assertThat(ManagerConfig.parse(
                                new String[] {"--namespace", "team-a"},
                                Map.of("KYMA_OPERATOR_LEADER_ELECTION_ID", "kyma-operator-leader"))
                        .leaseName())
                .isEqualTo("kyma-operator-leader");
        assertThat(ManagerConfig.parse(new String[] {"--leader-election-id", "a".repeat(244)}, Map.of())
                        .leaseName())
                .hasSize(244);
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--leader-election-id", "a".repeat(245)}, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--leader-election-id may have at most 244 characters");
    }

    @Test
    void leaderElectIsASwitch() {
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect"}, Map.of())
                        .leaderElect())
                .isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect", "--namespace", "x"}, Map.of())
                        .leaderElect())
                .isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect=false"}, Map.of())
                        .leaderElect())
                .isFalse();
        assertThat(ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_LEADER_ELECT", "true"))
                        .leaderElect())
                .isTrue();
    }

    @Test
    void badEnvironmentValuesNameTheFlagToo() {
        assertThatThrownBy(
                        () -> ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_KYMA_STATUS_INTERVAL", "soon")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--kyma-status-interval");
    }

    @Test
    void helpListsEveryFlagWithItsVariableAndDefault() {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--namespace", "x", "--help"}, Map.of()))
                .isInstanceOf(ManagerConfig.HelpRequested.class);
        String usage = ManagerConfig.usage();
        for (ManagerConfig.Flag flag : ManagerConfig.Flag.values()) {
            assertThat(usage).contains(flag.flagName(), flag.envName(), "default \"" + flag.defaultValue + "\"");
        }
    }

    @Test
    void theEffectiveConfigurationNamesEveryValue() {
        assertThat(ManagerConfig.parse(new String[] {"--transition-unit", "10ms"}, Map.of())
                        .describe())
                .isEqualTo("kubeconfig=<default> namespace=<all> transition-unit=10ms kyma-status-interval=5s "
                        + "max-concurrent-reconciles=50 admission-backlog=0 low-priority-max-wait=30s log-level=info failure-base-delay=1s failure-max-delay=16m40s "
                        + "rate-limiter-frequency=30 rate-limiter-burst=200 max-reconcile-rate=0 k8s-client-qps=150 "
                        + "k8s-client-burst=150 sync-period=10h informer-list-limit=500 temporary-cache-max=5000 reconcile-timeout=1m metrics-bind-address=:8080 "
                        + "health-probe-bind-address=:8081 remote-server-url=<none> run-poll-interval=5s "
                        + "run-cleanup-timeout=5m remote-connect-timeout=2s remote-request-timeout=10s "
                        + "remote-response-limit=262144 remote-max-in-flight=32 remote-max-in-flight-per-server=4 "
                        + "run-status-interval=5s remote-server-allow=<all> leader-elect=false "
                        + "leader-election-namespace=<own> leader-election-lease-duration=15s "
                        + "leader-election-renew-deadline=10s leader-election-retry-period=2s "
                        + "leader-election-id=kyma-operator-leader shards=1 shard-id=0");
    }

    @Test
    void theAdmissionBacklogFollowsTheWorkersUnlessSet() {
        assertThat(ManagerConfig.parse(new String[0], Map.of()).effectiveAdmissionBacklog())
                .isEqualTo(100);
        assertThat(ManagerConfig.parse(new String[] {"--max-concurrent-reconciles", "8"}, Map.of())
                        .effectiveAdmissionBacklog())
                .isEqualTo(16);
        assertThat(ManagerConfig.parse(new String[] {"--admission-backlog", "30"}, Map.of())
                        .effectiveAdmissionBacklog())
                .isEqualTo(30);
        assertThat(ManagerConfig.parse(new String[] {"--admission-backlog", "-1"}, Map.of())
                        .effectiveAdmissionBacklog())
                .isEqualTo(-1);
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--admission-backlog", "-2"}, Map.of()))
                .hasMessageContaining("--admission-backlog");
    }
}
