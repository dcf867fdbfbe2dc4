package io.kyma.operator.manager;

import java.time.Clock;
import java.time.Duration;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.kyma.operator.helmcomponent.HelmComponentReconciler;
import io.kyma.operator.kyma.KymaReconciler;

/** One {@link Operator} with every controller registered on one shared client. */
public final class KymaOperator {
    /** How long in-flight reconciles may run on after a stop was requested. */
    static final Duration GRACEFUL_STOP = Duration.ofSeconds(30);

    private KymaOperator() {
    }

    public static Operator create(KubernetesClient client, ManagerConfig config, Clock clock) {
        Operator operator = new Operator(o -> o
                .withKubernetesClient(client)
                .withConcurrentReconciliationThreads(config.maxConcurrentReconciles())
                .withReconciliationTerminationTimeout(GRACEFUL_STOP)
                .withCloseClientOnStop(false));
        operator.register(new HelmComponentReconciler(clock, config.transitionUnit()), o -> configure(o, config));
        operator.register(new KymaReconciler(clock, config.kymaStatusInterval()), o -> configure(o, config));
        return operator;
    }

    private static <R extends HasMetadata> void configure(ControllerConfigurationOverrider<R> overrider,
            ManagerConfig config) {
        config.namespace().ifPresentOrElse(overrider::settingNamespace, overrider::watchingAllNamespaces);
        // Failed reconciles back off from 1 s, doubling up to 1000 s, and are retried for ever.
        overrider.withRetry(new GenericRetry().setInitialInterval(1000).setIntervalMultiplier(2)
                .setMaxInterval(1_000_000).withoutMaxAttempts());
    }
}
