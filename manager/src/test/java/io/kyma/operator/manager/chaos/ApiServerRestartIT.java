package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EtcdHistory;
import io.kyma.operator.testing.RestartableControlPlane;

/**
 * Fault scenario 2, the control plane restarts under load: kube-apiserver stops for seconds while etcd keeps the
 * data, then starts again; or etcd restarts under a running API server. Watches must resume or relist, and no write
 * may be lost or made twice. The oracle reads the history of writes from etcd itself, which no outage can hide, so
 * the judgement does not depend on a watch of the test's own surviving the restart.
 */
class ApiServerRestartIT {
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), 6);
    private static final Duration BEGIN = ChaosLoad.full() ? Duration.ofSeconds(3) : Duration.ofSeconds(1);

    /** A restart: what it does, for how long the part is down, and how the table names it. */
    private record Restart(
            String name,
            Duration down,
            Consumer<RestartableControlPlane> stop,
            Consumer<RestartableControlPlane> start) {}

    @Test
    void afterEveryRestartTheLoadEndsAsWithoutOneAndNoWriteIsLostOrMadeTwice() {
        List<Restart> restarts = new ArrayList<>();
        for (int seconds : ChaosLoad.full() ? List.of(5, 15, 30) : List.of(5)) {
            restarts.add(new Restart(
                    "kube-apiserver stopped for " + seconds + " s (etcd keeps running)",
                    Duration.ofSeconds(seconds),
                    RestartableControlPlane::stopApiServer,
                    RestartableControlPlane::startApiServer));
        }
        restarts.add(new Restart(
                "etcd restarted under a running kube-apiserver",
                Duration.ZERO,
                RestartableControlPlane::restartEtcd,
                p -> {}));
        try (RestartableControlPlane plane = RestartableControlPlane.start();
                KubernetesClient admin = plane.newClient();
                JobServer jobs = JobServer.start("127.0.0.1", 0)) {
            Crds.install(admin);
            EtcdHistory etcd = new EtcdHistory(plane.etcdUrl());
            // without faults: the same schedule as the shortest stop, nothing stopped
            Restart none = new Restart("none", restarts.get(0).down(), p -> {}, p -> {});
            run(plane, admin, jobs, etcd, "restart-warm-up", none); // its control plane is fresh too
            Outcome baseline = run(plane, admin, jobs, etcd, "restart-baseline", none);
            List<ChaosRow> rows = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            int index = 0;
            for (Restart restart : restarts) {
                Outcome outcome = run(plane, admin, jobs, etcd, "restart-" + index++, restart);
                rows.add(ChaosRow.of(restart.name(), LOAD, baseline, outcome));
                failures.addAll(outcome.violations(restart.name(), LOAD, baseline));
            }
            ChaosReport.record("control-plane-restarts", ChaosReport.environment(), rows);
            assertThat(failures).isEmpty();
        }
    }

    private static Outcome run(
            RestartableControlPlane plane,
            KubernetesClient admin,
            JobServer jobs,
            EtcdHistory etcd,
            String namespace,
            Restart restart) {
        try (Trial trial = new Trial(admin, namespace, LOAD);
                InProcessOperator operator =
                        new InProcessOperator(plane.config(), trial.namespace(), LOAD.operatorFlags(jobs.url()))) {
            trial.createLoad();
            trial.at(BEGIN);
            trial.faultsBegin(operator.metrics());
            restart.stop().accept(plane);
            trial.at(BEGIN.plus(restart.down()));
            restart.start().accept(plane);
            trial.faultsEnd(operator.metrics());
            trial.awaitSettled();
            List<HelmComponent> written = etcd
                    .versions(EtcdHistory.prefix("inventory.kyma-project.io", "helmcomponents", trial.namespace()))
                    .stream()
                    .map(v -> Serialization.unmarshal(v.json(), HelmComponent.class))
                    .toList();
            return trial.outcome(jobs, List.of(), written, operator.metrics());
        }
    }
}
