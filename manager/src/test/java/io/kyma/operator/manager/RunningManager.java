package io.kyma.operator.manager;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.RequestRecorder;

/** The manager's real wiring, started in this JVM against the embedded control plane, watching one namespace. */
final class RunningManager implements AutoCloseable {
    final RequestRecorder requests = new RequestRecorder();
    final KubernetesClient client;
    final Operator operator;

    RunningManager(String namespace, String... flags) {
        List<String> args = new ArrayList<>(List.of(flags));
        args.addAll(List.of("--namespace", namespace));
        ManagerConfig config = ManagerConfig.parse(args.toArray(String[]::new), Map.of());
        client = EmbeddedControlPlane.get().newClient(requests);
        operator = KymaOperator.create(client, config, Clock.systemUTC());
        operator.start();
    }

    @Override
    public void close() {
        operator.stop();
        client.close();
    }
}
