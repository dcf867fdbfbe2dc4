package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.HelpRequested;
import io.kyma.operator.manager.config.EndpointSettings;
import io.kyma.operator.manager.config.ManagerConfig;

class ManagerConfigTest {
    @Test
    void defaultsApplyWithoutFlagsOrEnvironment() {
        ManagerConfig config = ManagerConfig.parse(new String[0], Map.of());
        assertThat(config.client().kubeconfig()).isEmpty();
        assertThat(config.reconcile().namespace()).isEmpty();
        assertThat(config.kyma().transitionUnit()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.kyma().statusInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.reconcile().maxConcurrentReconciles()).isEqualTo(50);
        assertThat(config.logLevel()).isEqualTo("info");
        assertThat(config.retry().baseDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.retry().maxDelay()).isEqualTo(Duration.ofSeconds(1000));
        assertThat(config.retry().frequency()).isEqualTo(30.0);
        assertThat(config.retry().burst()).isEqualTo(200);
        assertThat(config.reconcile().maxReconcileRate()).isZero();
        assertThat(config.client().qps()).isEqualTo(250.0);
        assertThat(config.client().burst()).isEqualTo(250);
        assertThat(config.reconcile().syncPeriod()).isEqualTo(Duration.ofHours(10));
        assertThat(config.reconcile().reconcileTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.endpoints().metrics()).contains(new EndpointSettings.BindAddress("0.0.0.0", 8080));
        assertThat(config.endpoints().healthProbes()).contains(new EndpointSettings.BindAddress("0.0.0.0", 8081));
    }

    @Test
    void zeroTurnsTheEndpointsAndTheClientLimiterOff() {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {
                    "--metrics-bind-address=0", "--health-probe-bind-address", "127.0.0.1:0", "--k8s-client-qps=-1"
                },
                Map.of());
        assertThat(config.endpoints().metrics()).isEmpty();
        assertThat(config.endpoints().healthProbes()).contains(new EndpointSettings.BindAddress("127.0.0.1", 0));
        assertThat(config.client().qps()).isNegative();
    }

    @Test
    void theHeapIsReturnedAfter30QuietSecondsUnlessZeroTurnsItOff() {
        assertThat(ManagerConfig.parse(new String[0], Map.of()).reconcile().heapReturnAfter())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(ManagerConfig.parse(new String[] {"--heap-return-after", "0"}, Map.of())
                        .reconcile()
                        .heapReturnAfter())
                .isZero();
        assertThat(ManagerConfig.parse(new String[] {"--heap-return-after=2m"}, Map.of())
                        .reconcile()
                        .heapReturnAfter())
                .isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--heap-return-after=-1s"}, Map.of()))
                .hasMessageContaining("--heap-return-after");
    }

    @Test
    void theOldGenerationMayHoldHalfItsLiveDataInGarbageUnlessZeroLeavesItToTheCollector() {
        assertThat(ManagerConfig.parse(new String[0], Map.of()).reconcile().heapHeadroom())
                .isEqualTo(0.5);
        assertThat(ManagerConfig.parse(new String[] {"--heap-headroom=0"}, Map.of())
                        .reconcile()
                        .heapHeadroom())
                .isZero();
        assertThat(ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_HEAP_HEADROOM", "25"))
                        .reconcile()
                        .heapHeadroom())
                .isEqualTo(0.25);
        for (String bad : List.of("-1", "1001", "0.5", "half")) {
            assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--heap-headroom", bad}, Map.of()))
                    .as(bad)
                    .hasMessageContaining("--heap-headroom");
        }
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
        assertThat(config.kyma().transitionUnit()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.reconcile().namespace()).isEqualTo(Optional.of("pb"));
        assertThat(config.reconcile().maxConcurrentReconciles()).isEqualTo(100);
        assertThat(config.client().kubeconfig()).contains("/tmp/kc");
        assertThat(config.logLevel()).isEqualTo("debug");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--transition-unit=5x|--transition-unit",
                "--transition-unit=0s|for --transition-unit: must be greater than 0",
                "--kyma-status-interval=-1s|--kyma-status-interval",
                "--max-concurrent-reconciles=0|for --max-concurrent-reconciles: must be at least 1",
                "--max-concurrent-reconciles=many|--max-concurrent-reconciles: not a number",
                "--log-level=loud|for --log-level: must be one of",
                "--no-such-flag=1|unknown flag --no-such-flag",
                "--namespace|--namespace needs a value",
                "stray|unexpected argument 'stray'",
                "--failure-base-delay=0s|for --failure-base-delay: must be greater than 0",
                "--rate-limiter-frequency=0|for --rate-limiter-frequency: must be greater than 0",
                "--rate-limiter-burst=0|for --rate-limiter-burst: must be at least 1",
                "--k8s-client-qps=fast|--k8s-client-qps: not a number",
                "--sync-period=1d|--sync-period",
                "--reconcile-timeout=never|--reconcile-timeout",
                "--metrics-bind-address=8080|--metrics-bind-address",
                "--health-probe-bind-address=:70000|--health-probe-bind-address: port 70000 is out of range",
                "--remote-server-url=ftp://host|--remote-server-url: the scheme must be http or https",
                "--failure-max-delay=500ms|--failure-max-delay must not be shorter than --failure-base-delay",
                "--namespace=Team_A|--namespace: 'Team_A' is not a namespace name",
                "--remote-response-limit=1Ki|--remote-response-limit: must be from 64Ki",
                "--shards=0|for --shards: must be at least 1",
                "--shard-id=3|--shard-id must be below --shards (1), got 3",
                "--shard-id=kyma-operator|--shard-id: 'kyma-operator' is neither a number from 0 nor a pod name ending in -N",
                "--shard-id=-1|--shard-id: '-1' is neither a number from 0 nor a pod name ending in -N",
                "--shards=65|for --shards: must be at most 64, got 65",
                "--remote-server-allow=jobs_example|--remote-server-allow: 'jobs_example' is not a host name",
                "--sync-period=9999999999h|--sync-period: '9999999999h' is longer than the longest duration",
                "--run-poll-interval=0s|for --run-poll-interval: must be greater than 0",
                "--run-cleanup-timeout=forever|--run-cleanup-timeout",
                "--leader-elect=maybe|for --leader-elect: must be true or false",
                "--leader-election-id=Kyma_Lease|--leader-election-id",
                "--leader-election-lease-duration=10s|--leader-election-lease-duration must be longer than --leader-election-renew-deadline, got 10s and 10s",
                "--leader-election-retry-period=9s|--leader-election-renew-deadline must be longer than 1.2 times --leader-election-retry-period, got 10s and 9s",
                "--leader-election-lease-duration=10500ms|--leader-election-lease-duration must be whole seconds (the Lease stores seconds), got 10500ms",
                "--leader-election-renew-deadline=0s|for --leader-election-renew-deadline: must be greater than 0",
                "--max-concurrent-reconciles=100000|for --max-concurrent-reconciles: must be at most 1024",
                "--k8s-client-burst=2000000|for --k8s-client-burst: must be at most 1000000",
                "--max-reconcile-rate=-1|for --max-reconcile-rate: must be at least 0",
                "--informer-list-limit=1000000|for --informer-list-limit: must be at most 100000",
                "--metrics-cert-dir=/certs|--metrics-cert-dir is given without --metrics-secure",
                "--crd-check=sometimes|--crd-check"
            })
    void badValuesAreRejectedNamingTheFlag(String arg, String message) {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {arg}, Map.of()))
                .isInstanceOf(FlagException.class)
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
                .isInstanceOf(FlagException.class)
                .hasMessageContaining("--leader-election-id may have at most 244 characters");
    }

    @Test
    void leaderElectIsASwitch() {
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect"}, Map.of())
                        .leader()
                        .elect())
                .isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect", "--namespace", "x"}, Map.of())
                        .leader()
                        .elect())
                .isTrue();
        assertThat(ManagerConfig.parse(new String[] {"--leader-elect=false"}, Map.of())
                        .leader()
                        .elect())
                .isFalse();
        assertThat(ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_LEADER_ELECT", "true"))
                        .leader()
                        .elect())
                .isTrue();
    }

    @Test
    void badEnvironmentValuesNameTheFlagToo() {
        assertThatThrownBy(
                        () -> ManagerConfig.parse(new String[0], Map.of("KYMA_OPERATOR_KYMA_STATUS_INTERVAL", "soon")))
                .isInstanceOf(FlagException.class)
                .hasMessageContaining("--kyma-status-interval");
    }

    @Test
    void helpListsEveryFlagWithItsVariableAndDefault() {
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--namespace", "x", "--help"}, Map.of()))
                .isInstanceOf(HelpRequested.class);
        String usage = ManagerConfig.usage();
        for (Flag<?> flag : ManagerConfig.FLAGS.all()) {
            assertThat(usage)
                    .contains(
                            flag.flagName(),
                            flag.envName(ManagerConfig.ENV_PREFIX),
                            "default \"" + flag.defaultText() + "\"");
        }
    }

    @Test
    void theEffectiveConfigurationNamesEveryFlagOnceInOrder() {
        String described = ManagerConfig.parse(
                        new String[] {"--transition-unit", "10ms", "--namespace", "team-a"}, Map.of())
                .describe();
        assertThat(described)
                .contains("transition-unit=10ms", "kubeconfig=(empty)", "failure-max-delay=1000s")
                .as("the Lease's name in effect, not the default's")
                .contains("leader-election-id=kyma-operator-leader-team-a");
        List<String> names = Stream.of(described.split(" "))
                .map(pair -> pair.substring(0, pair.indexOf('=')))
                .toList();
        assertThat(names)
                .containsExactlyElementsOf(
                        ManagerConfig.FLAGS.all().stream().map(Flag::name).toList());
    }

    @Test
    void theAdmissionBacklogFollowsTheWorkersUnlessSet() {
        assertThat(ManagerConfig.parse(new String[0], Map.of()).kyma().effectiveAdmissionBacklog(50))
                .isEqualTo(100);
        ManagerConfig eight = ManagerConfig.parse(new String[] {"--max-concurrent-reconciles", "8"}, Map.of());
        assertThat(eight.kyma().effectiveAdmissionBacklog(eight.reconcile().maxConcurrentReconciles()))
                .isEqualTo(16);
        assertThat(ManagerConfig.parse(new String[] {"--admission-backlog", "30"}, Map.of())
                        .kyma()
                        .effectiveAdmissionBacklog(50))
                .isEqualTo(30);
        assertThat(ManagerConfig.parse(new String[] {"--admission-backlog", "-1"}, Map.of())
                        .kyma()
                        .effectiveAdmissionBacklog(50))
                .isEqualTo(-1);
        assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--admission-backlog", "-2"}, Map.of()))
                .hasMessageContaining("--admission-backlog");
    }
}
