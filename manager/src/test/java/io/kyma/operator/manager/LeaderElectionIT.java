package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * Two managers against one API server: only the leader reconciles, and a lost lease hands over safely. How long a
 * take-over takes is printed, not asserted: it is the lease's arithmetic plus the API server's latency, which a slow
 * machine stretches. What is asserted holds on any machine: the timing the flags ask for is the Lease's, and the old
 * leader stops before the other starts. The waits' deadlines only catch hangs ({@link HangCatcher}).
 */
class LeaderElectionIT {
    /**
     * Shorter than the defaults (15 s, 10 s, 2 s) so that the two take-overs take seconds, in the same order: a
     * leader that cannot renew stops 3 s before its lease runs out.
     */
    private static final Duration LEASE = Duration.ofSeconds(8);

    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(5);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private static KubernetesClient admin;

    @BeforeAll
    static void setUp() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
    }

    @AfterAll
    static void tearDown() {
        admin.close();
    }

    @Test
    void onlyTheLeaderReconcilesAndTheOtherTakesOverWhenItStops() {
        String ns = namespace("leader-takeover");
        KymaOperator first = start(ns, null);
        await().atMost(HangCatcher.STEP).until(first::leading);
        KymaOperator second = start(ns, null);
        try {
            Lease lease = admin.leases()
                    .inNamespace(ns)
                    .withName("kyma-operator-leader-" + ns)
                    .get();
            assertThat(lease.getSpec().getLeaseDurationSeconds())
                    .as("the lease duration the flags ask for, which the others wait out before they take over")
                    .isEqualTo((int) LEASE.toSeconds());
            admin.resource(Samples.kyma(ns, "led", Samples.MODULES.subList(0, 3)))
                    .create();
            awaitReady(ns, "led");
            assertThat(second.leading()).isFalse();
            try (ManagerEndpoints leader = first.serveEndpoints();
                    ManagerEndpoints follower = second.serveEndpoints()) {
                assertThat(get(follower.probesAddress().orElseThrow(), "/readyz"))
                        .as("/readyz of the follower")
                        .startsWith("200 ");
                assertThat(get(leader.probesAddress().orElseThrow(), "/readyz"))
                        .as("/readyz of the leader")
                        .startsWith("200 ");
                assertThat(get(leader.metricsAddress().orElseThrow(), "/metrics"))
                        .contains("leader_election_master_status{name=\"kyma-operator-leader-" + ns + "\"} 1.0");
                assertThat(get(follower.metricsAddress().orElseThrow(), "/metrics"))
                        .contains("leader_election_master_status{name=\"kyma-operator-leader-" + ns + "\"} 0.0");
            }
            assertThat(reconciles(first)).isGreaterThan(0);
            assertThat(reconciles(second)).as("the follower reconciles nothing").isZero();

            Instant stopped = Instant.now();
            first.close();
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(100))
                    .until(second::leading);
            Duration takeover = Duration.between(stopped, second.leadingSince().orElseThrow());
            System.out.printf(
                    "Leader stopped; the other manager took over after %d ms (lease %d s, retry %d s)%n",
                    takeover.toMillis(), LEASE.toSeconds(), RETRY.toSeconds());

            admin.resource(Samples.kyma(ns, "after", Samples.MODULES.subList(0, 2)))
                    .create();
            awaitReady(ns, "after");
            assertThat(reconciles(second)).isGreaterThan(0);
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void aLeaderThatLosesTheLeaseStopsBeforeTheOtherStarts() {
        String ns = namespace("leader-loss");
        Partition partition = new Partition();
        KymaOperator first = start(ns, partition);
        await().atMost(HangCatcher.STEP).until(first::leading);
        KymaOperator second = start(ns, null);
        try {
            partition.cut = true; // the leader can no longer renew its lease
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> second.leadingSince().isPresent());
            Instant lost = first.stoppedLeadingAt().orElseThrow();
            Instant taken = second.leadingSince().orElseThrow();
            System.out.printf(
                    "Partitioned leader stopped at +0 ms; the other started leading at +%d ms%n",
                    Duration.between(lost, taken).toMillis());
            assertThat(lost).isBefore(taken);
            assertThat(first.leading()).isFalse();

            admin.resource(Samples.kyma(ns, "handed-over", Samples.MODULES.subList(0, 2)))
                    .create();
            awaitReady(ns, "handed-over");
        } finally {
            partition.cut = false;
            first.close();
            second.close();
        }
    }

    /** Fails every request of one client while cut, as a network partition would. */
    static final class Partition implements Interceptor {
        volatile boolean cut;

        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            if (cut) {
                throw new KubernetesClientException("partitioned from the API server");
            }
        }
    }

    private static KymaOperator start(String ns, Interceptor interceptor) {
        List<String> args = new ArrayList<>(List.of(
                "--metrics-bind-address",
                "127.0.0.1:0",
                "--health-probe-bind-address",
                "127.0.0.1:0",
                "--namespace",
                ns,
                "--transition-unit",
                "10ms",
                "--leader-elect",
                "--leader-election-namespace",
                ns,
                "--leader-election-lease-duration",
                GoDuration.format(LEASE),
                "--leader-election-renew-deadline",
                GoDuration.format(RENEW_DEADLINE),
                "--leader-election-retry-period",
                GoDuration.format(RETRY)));
        ManagerConfig config = ManagerConfig.parse(args.toArray(String[]::new), Map.of());
        KymaOperator manager = new KymaOperator(
                config,
                EmbeddedControlPlane.get().config(),
                Clock.systemUTC(),
                interceptor == null ? List.of() : List.of(interceptor));
        manager.start();
        return manager;
    }

    /** "code body" of a GET on the endpoint. */
    private static String get(InetSocketAddress address, String path) {
        try {
            var response = HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + address.getPort() + path))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double reconciles(KymaOperator manager) {
        return manager.metrics().registry().find("controller_runtime_reconcile").counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    private static void awaitReady(String ns, String name) {
        await().atMost(HangCatcher.STEP).until(() -> {
            Kyma kyma =
                    admin.resources(Kyma.class).inNamespace(ns).withName(name).get();
            return kyma != null && kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
        });
    }

    private static String namespace(String name) {
        return Namespaces.apply(admin, name);
    }
}
