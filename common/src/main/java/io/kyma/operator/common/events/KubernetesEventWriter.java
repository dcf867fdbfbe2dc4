package io.kyma.operator.common.events;

import java.time.Duration;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * Writes core/v1 Events, the ones {@code kubectl describe} shows on every Kubernetes version. Each call is one request
 * that ends within {@link #DEADLINE}: the client does not retry it (an Event is best effort, and a retried write
 * behind a hanging admission webhook would hold its sender for minutes), and a request without an answer by then
 * fails. The requests go through the given client's HTTP client, and so its interceptors (its limiter among them).
 */
public final class KubernetesEventWriter implements EventRecorder.Writer {
    /** The longest one call waits for the API server's answer; a webhook may take up to 30 s to time out. */
    public static final Duration DEADLINE = Duration.ofSeconds(5);

    private final KubernetesClient client;

    public KubernetesEventWriter(KubernetesClient client) {
        this(client, DEADLINE);
    }

    KubernetesEventWriter(KubernetesClient client, Duration deadline) {
        RequestConfig once = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestTimeout(Math.toIntExact(deadline.toMillis()))
                .withRequestRetryBackoffLimit(0)
                .build();
        this.client = client.newClient(once).adapt(KubernetesClient.class);
    }

    @Override
    public String create(Event event) {
        return client.v1()
                .events()
                .inNamespace(event.getMetadata().getNamespace())
                .resource(event)
                .create()
                .getMetadata()
                .getName();
    }

    @Override
    public boolean aggregate(String namespace, String name, int count, String lastTimestamp) {
        try {
            client.v1()
                    .events()
                    .inNamespace(namespace)
                    .withName(name)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"count\":" + count + ",\"lastTimestamp\":\"" + lastTimestamp + "\"}");
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }
}
