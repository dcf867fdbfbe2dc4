package io.kyma.operator.manager.chaos;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.Config;
import io.kyma.operator.manager.KymaOperator;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.ApiFaultProxy;

/** The manager's real wiring in this JVM, reaching the API server through a fault proxy or directly, on one namespace. */
final class InProcessOperator implements AutoCloseable {
    private final KymaOperator manager;

    InProcessOperator(ApiFaultProxy proxy, String namespace, List<String> flags) {
        this(proxy.clientConfig(), namespace, flags);
    }

    /** The operator reaching the API server of {@code client} directly. */
    InProcessOperator(Config client, String namespace, List<String> flags) {
        List<String> args = new ArrayList<>(
                List.of("--metrics-bind-address", "0", "--health-probe-bind-address", "0", "--namespace", namespace));
        args.addAll(flags);
        manager = new KymaOperator(
                ManagerConfig.parse(args.toArray(String[]::new), Map.of()), client, Clock.systemUTC(), List.of());
        manager.start();
    }

    ReplicaMetrics.Snapshot metrics() {
        return ReplicaMetrics.read(manager.metrics()::scrape);
    }

    @Override
    public void close() {
        manager.close();
    }
}
