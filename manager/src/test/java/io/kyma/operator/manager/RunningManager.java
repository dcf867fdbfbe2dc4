package io.kyma.operator.manager;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.RequestRecorder;

/** The manager's real wiring, started in this JVM against the embedded control plane, watching one namespace. */
final class RunningManager implements AutoCloseable {
    final RequestRecorder requests = new RequestRecorder();
    final KymaOperator manager;
    final KubernetesClient client;
    final Operator operator;
    final ManagerEndpoints endpoints;

    /** Endpoints are off unless the flags turn them on (":0" picks a free port). */
    RunningManager(String namespace, String... flags) {
        List<String> args = new ArrayList<>(List.of("--metrics-bind-address", "0", "--health-probe-bind-address", "0"));
        args.addAll(List.of(flags));
        args.addAll(List.of("--namespace", namespace));
        ManagerConfig config = ManagerConfig.parse(args.toArray(String[]::new), Map.of());
        manager = new KymaOperator(config, EmbeddedControlPlane.get().config(), Clock.systemUTC(), List.of(requests));
        client = manager.client();
        operator = manager.operator();
        endpoints = manager.serveEndpoints();
        manager.start();
    }

    @Override
    public void close() {
        manager.close();
        endpoints.close();
    }
}
