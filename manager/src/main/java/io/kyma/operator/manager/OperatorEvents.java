package io.kyma.operator.manager;

import java.time.Clock;
import java.util.Locale;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.common.events.EventRecorder;
import io.kyma.operator.common.events.KubernetesEventWriter;
import io.kyma.operator.manager.config.ClientSettings;
import io.kyma.operator.manager.leader.Leadership;
import io.kyma.operator.manager.metrics.OperatorMetrics;

/**
 * The manager's events: sent through the same client, and so the same limiter, as every other write, and at most
 * {@link #SHARE} of its requests a second (at least one), or {@link #UNLIMITED_CLIENT} when the client has no limit.
 */
final class OperatorEvents {
    /** The share of the client's requests per second that events may take. */
    static final double SHARE = 0.1;
    /** Events per second when the client has no limit. */
    static final double UNLIMITED_CLIENT = 10;

    private OperatorEvents() {}

    static double perSecond(ClientSettings settings) {
        return settings.qps() > 0 ? Math.max(1, settings.qps() * SHARE) : UNLIMITED_CLIENT;
    }

    static EventRecorder start(KubernetesClient client, ClientSettings settings, Clock clock, OperatorMetrics metrics) {
        EventRecorder recorder = new EventRecorder(
                clock,
                new KubernetesEventWriter(client),
                EventRecorder.Settings.defaults("kyma-operator", Leadership.hostname(), perSecond(settings)));
        for (EventRecorder.Outcome outcome : EventRecorder.Outcome.values()) {
            metrics.counter(
                    "kyma_operator_events",
                    "Events the operator told, by what became of them",
                    recorder,
                    r -> r.count(outcome),
                    "outcome",
                    outcome.name().toLowerCase(Locale.ROOT));
        }
        return recorder.start();
    }
}
