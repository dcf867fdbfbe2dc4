package io.kyma.operator.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.common.status.StatusPatch;

/**
 * The ways of writing a status the benchmark compares on the API server. Both carry the primary's resourceVersion, so
 * a stale write fails with 409. The operator writes with {@link #APPLY}; {@link #MERGE} was measured against it and is
 * kept here only so that the benchmark can measure it again.
 */
enum StatusVerb {
    /** Server-side apply of an object holding only the identity and the status, forced: the operator's. */
    APPLY {
        @Override
        <P extends HasMetadata> P write(KubernetesClient client, P primary, P statusOnly, String fieldManager) {
            return StatusPatch.write(client, primary, statusOnly, fieldManager);
        }
    },
    /** A JSON merge patch of the status against the one read, with the resourceVersion as precondition. */
    MERGE {
        @Override
        <P extends HasMetadata> P write(KubernetesClient client, P primary, P statusOnly, String fieldManager) {
            ObjectNode patch = JsonNodeFactory.instance.objectNode();
            patch.putObject("metadata")
                    .put("resourceVersion", primary.getMetadata().getResourceVersion());
            patch.set("status", MergePatch.diff(status(primary), status(statusOnly)));
            return client.resource(statusOnly)
                    .subresource("status")
                    .patch(
                            new PatchContext.Builder()
                                    .withPatchType(PatchType.JSON_MERGE)
                                    .withFieldManager(fieldManager)
                                    .build(),
                            patch.toString());
        }
    };

    /** Writes the status of {@code statusOnly} over that of {@code primary}; returns the API server's answer. */
    abstract <P extends HasMetadata> P write(KubernetesClient client, P primary, P statusOnly, String fieldManager);

    private static JsonNode status(HasMetadata resource) {
        Object status = resource instanceof CustomResource<?, ?> custom ? custom.getStatus() : null;
        return status == null
                ? JsonNodeFactory.instance.objectNode()
                : Serialization.jsonMapper().valueToTree(status);
    }
}
