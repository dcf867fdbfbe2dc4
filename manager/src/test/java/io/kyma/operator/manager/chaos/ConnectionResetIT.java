package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.FaultProxy;

/**
 * Fault scenario 3, at the level of TCP: the operator reaches the API server through a proxy that resets every
 * connection again and again (a crashed load balancer) and then refuses new ones for a second, mid-load.
 */
class ConnectionResetIT {
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), 3);
    private static final Duration BEGIN = ChaosLoad.full() ? Duration.ofSeconds(2) : Duration.ofMillis(400);
    private static final int RESETS = ChaosLoad.full() ? 20 : 8;

    @Test
    void resetConnectionsMidLoadLoseNoTransitionAndRepeatNone() {
        Config direct = EmbeddedControlPlane.get().config();
        URI apiServer = URI.create(direct.getMasterUrl());
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient();
                JobServer jobs = JobServer.start("127.0.0.1", 0)) {
            Crds.install(admin);
            if (ChaosEnvironment.coldJvm()) {
                run(admin, jobs, apiServer, "resets-warm-up", false);
            }
            Outcome baseline = run(admin, jobs, apiServer, "resets-baseline", false);
            Outcome faulted = run(admin, jobs, apiServer, "resets-fault", true);
            ChaosReport.record(
                    "connection-resets",
                    ChaosReport.environment(),
                    List.of(ChaosRow.of(
                            "every connection" + " reset " + RESETS
                                    + " times, 400 ms apart, then connections refused for 1 s",
                            LOAD,
                            baseline,
                            faulted)));

            assertThat(faulted.differencesFrom(baseline)).isEmpty();
            assertThat(faulted.components().passed())
                    .as(faulted.components().toString())
                    .isTrue();
            assertThat(faulted.components().finished()).isEqualTo(LOAD.components());
            assertThat(faulted.runsStartedTwice()).isZero();
            assertThat(faulted.duringFault().connectionErrors())
                    .as("rest_client_requests_total{code=\"<error>\"}")
                    .isPositive();
        }
    }

    private static Outcome run(
            KubernetesClient admin, JobServer jobs, URI apiServer, String namespace, boolean faults) {
        try (FaultProxy proxy = FaultProxy.to(apiServer.getHost(), apiServer.getPort());
                Trial trial = new Trial(admin, namespace, LOAD)) {
            Config viaProxy = EmbeddedControlPlane.get().config();
            viaProxy.setMasterUrl("https://" + apiServer.getHost() + ":" + proxy.port());
            try (InProcessOperator operator =
                    new InProcessOperator(viaProxy, trial.namespace(), LOAD.operatorFlags(jobs.url()))) {
                trial.createLoad();
                trial.at(BEGIN);
                trial.faultsBegin(operator.metrics());
                for (int i = 1; i <= RESETS; i++) {
                    trial.at(BEGIN.plus(Duration.ofMillis(400L * i)));
                    if (faults) {
                        proxy.resetAll();
                    }
                }
                if (faults) {
                    proxy.refuseFor(Duration.ofSeconds(1));
                    proxy.resetAll();
                }
                trial.at(BEGIN.plus(Duration.ofMillis(400L * RESETS + 1000)));
                trial.faultsEnd(operator.metrics());
                trial.awaitSettled();
                return trial.outcome(jobs, List.of(), trial.watchedComponents(), operator.metrics());
            }
        }
    }
}
