package io.kyma.operator.manager;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.kyma.operator.common.cache.MetadataCloner;

/** How the manager configures JOSDK's {@link Operator}, in one place. */
final class Operators {
    private Operators() {}

    /**
     * @param leaderElection the Lease to hold, if replicas elect a leader
     * @param gracefulStop how long in-flight reconciles may run on after a stop was requested
     * @param pool the reconcile pool of all controllers
     */
    static Operator create(
            KubernetesClient client,
            Optional<LeaderElectionConfiguration> leaderElection,
            int threads,
            Duration gracefulStop,
            ExecutorService pool,
            Metrics metrics,
            List<ControllerSpec<?>> controllers) {
        return new Operator(o -> o.withKubernetesClient(client)
                .withLeaderElectionConfiguration(leaderElection.orElse(null))
                .withConcurrentReconciliationThreads(threads)
                .withReconciliationTerminationTimeout(gracefulStop)
                .withExecutorService(pool)
                // JOSDK copies the primary before every reconcile; for our kinds a copy of the metadata is enough.
                .withResourceCloner(new MetadataCloner(freshResources(controllers), new Cloner() {
                    @Override
                    public <R extends HasMetadata> R clone(R object) {
                        return client.getKubernetesSerialization().clone(object);
                    }
                }))
                .withMetrics(metrics)
                // Without comparing resourceVersions, a late watch event for an older version evicts the version a
                // reconcile just wrote from JOSDK's temporary cache, and the next status patch conflicts (409).
                .withParseResourceVersions(true)
                .withCloseClientOnStop(false));
    }

    /** For each kind whose primaries JOSDK may copy by their metadata alone, how to make an empty one. */
    private static Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> freshResources(
            List<ControllerSpec<?>> controllers) {
        Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> fresh = new HashMap<>();
        for (ControllerSpec<?> spec : controllers) {
            spec.fresh().ifPresent(supplier -> fresh.put(supplier.get().getClass(), supplier));
        }
        return fresh;
    }
}
