package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.helmcomponent.ComponentLifecycle;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.FaultProxy;
import io.kyma.operator.testing.LifecycleOracle;
import io.kyma.operator.testing.Namespaces;

/**
 * The short version of a fault scenario: the operator reaches the API server through a proxy that resets every
 * connection again and again and refuses new ones for a while, mid-load. Judged by the lifecycle oracle on a watch the
 * test opens directly: every component walks every state once, in order, none early, and every Kyma ends Ready.
 */
class ConnectionResetIT {
    private static final String NS = "fault-resets";
    private static final Duration UNIT = Duration.ofMillis(50);
    private static final int KYMAS = 6;

    @Test
    void resetConnectionsMidLoadLoseNoTransitionAndRepeatNone() {
        Config direct = EmbeddedControlPlane.get().config();
        URI apiServer = URI.create(direct.getMasterUrl());
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient();
                FaultProxy proxy = FaultProxy.to(apiServer.getHost(), apiServer.getPort())) {
            Crds.install(admin);
            Namespaces.apply(admin, NS);
            Config viaProxy = EmbeddedControlPlane.get().config();
            viaProxy.setMasterUrl("https://" + apiServer.getHost() + ":" + proxy.port());
            ManagerConfig config = ManagerConfig.parse(new String[] { "--namespace", NS, "--transition-unit", "50ms",
                    "--metrics-bind-address", "0", "--health-probe-bind-address", "0" }, Map.of());
            try (History history = new History(admin, NS);
                    KymaOperator manager = new KymaOperator(config, viaProxy, Clock.systemUTC(), List.of())) {
                manager.start();
                for (int i = 0; i < KYMAS; i++) {
                    admin.resource(Samples.kyma(NS, "k" + i, Samples.MODULES)).create();
                }
                // Faults while the components walk (one Kyma takes 67 units, 3.4 s): eight resets 400 ms apart,
                // then a second in which every new connection is refused.
                for (int i = 0; i < 8; i++) {
                    await().pollDelay(Duration.ofMillis(400)).until(() -> true);
                    proxy.resetAll();
                }
                proxy.refuseFor(Duration.ofSeconds(1));
                proxy.resetAll();
                Instant faultsEnded = Instant.now().plusSeconds(1);

                await().atMost(Duration.ofSeconds(120)).until(() -> admin.resources(Kyma.class).inNamespace(NS).list()
                        .getItems().stream().filter(k -> k.getStatus() != null
                                && k.getStatus().getPhase() == KymaPhase.READY).count() == KYMAS);
                Duration converged = Duration.between(faultsEnded, Instant.now());

                ComponentLifecycle lifecycle = new ComponentLifecycle(UNIT);
                LifecycleOracle oracle = new LifecycleOracle(
                        List.of("pending", "started", "failing", "retrying", "success"),
                        (name, state) -> lifecycle.dwell(ComponentState.valueOf(state.toUpperCase()),
                                module(name)).orElse(Duration.ZERO));
                List<LifecycleOracle.Observation> seen = new ArrayList<>();
                for (History.Event event : history.events()) {
                    if (event.object() instanceof HelmComponent c && c.getStatus() != null
                            && c.getStatus().getState() != null) {
                        seen.add(new LifecycleOracle.Observation(c.getMetadata().getName(),
                                c.getStatus().getState().wireName(), Instant.parse(c.getStatus().getLastTransitionTime())));
                    }
                }
                LifecycleOracle.Verdict verdict = oracle.judge(seen);
                double reconciles = manager.metrics().registry().find("controller_runtime_reconcile").counters()
                        .stream().filter(c -> "helmcomponent".equals(c.getId().getTag("controller")))
                        .mapToDouble(c -> c.count()).sum();
                System.out.printf("Connection resets: %d sockets reset, %d connections accepted; converged %d ms after"
                        + " the faults; %s; %.0f component reconciles for %d components%n", proxy.resets(),
                        proxy.accepted(), Math.max(0, converged.toMillis()), verdict, reconciles, KYMAS * 18);

                assertThat(proxy.resets()).as("connections the proxy reset").isGreaterThan(8);
                assertThat(verdict.passed()).as(verdict.toString()).isTrue();
                assertThat(verdict.finished()).isEqualTo(KYMAS * 18);
                assertThat(reconciles).as("no hot loop: reconciles of all components").isLessThan(KYMAS * 18 * 12);
            }
        }
    }

    /** k3-cluster-essentials is module cluster-essentials of Kyma k3. */
    private static String module(String component) {
        return component.substring(component.indexOf('-') + 1);
    }
}
