package io.kyma.operator.common.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/** Writes core/v1 Events, the ones {@code kubectl describe} shows on every Kubernetes version. */
public final class KubernetesEventWriter implements EventRecorder.Writer {
    private final KubernetesClient client;

    public KubernetesEventWriter(KubernetesClient client) {
        this.client = client;
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
