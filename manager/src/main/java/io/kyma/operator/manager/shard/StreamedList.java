package io.kyma.operator.manager.shard;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.common.cache.LeanCache;

/**
 * The mover's and the rebalancer's lists, read one object at a time as the answer streams in, each object kept only as
 * a lean copy of what they read and write ({@link #lean}). Anyone who may write labels decides what a selective list
 * holds, and the objects may be large: fabric8's {@code list()} would hold a whole answer of full objects.
 * <ul>
 * <li>{@link Source#WATCH_CACHE}: from the API server's watch cache ({@code resourceVersion=0}), which answers a
 * selective list from memory but whole (it ignores {@code limit}); the objects are handed on as they are read.</li>
 * <li>{@link Source#PAGES}: from etcd, a page of {@value #PAGE} at a time, one consistent snapshot through the continue
 * token; a page's lean copies are handed on once the page is read, so that what is done with them (writes) does not
 * hold the answer open.</li>
 * </ul>
 * Each request goes out, and its errors are read, as a {@link ListRequest}.
 */
final class StreamedList {
    /** Where a list is read from. */
    enum Source {
        WATCH_CACHE,
        PAGES
    }

    /** Objects per page from etcd. */
    static final int PAGE = 500;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .addMixIn(ObjectMeta.class, SkippedMetadata.class);

    /** What is skipped unread of an object's metadata: the mover reads neither. */
    @JsonIgnoreProperties({"managedFields", "annotations"})
    private abstract static class SkippedMetadata {}

    private StreamedList() {}

    /**
     * Hands a lean copy of each object of {@code kind} that {@code labelSelector} selects to {@code each}, until it
     * answers false or the list ends.
     *
     * @param namespace the namespace to list in; empty for all
     * @return whether the list was read to its end
     */
    static <R extends HasMetadata> boolean each(
            KubernetesClient client,
            Class<R> kind,
            Optional<String> namespace,
            String labelSelector,
            Source source,
            Predicate<? super R> each) {
        String url = ListRequest.url(client.getMasterUrl(), kind, namespace, labelSelector);
        if (source == Source.WATCH_CACHE) {
            return ListRequest.get(
                    client, kind, url + "&resourceVersion=0", body -> read(body, kind, each, token -> {}));
        }
        String next = null;
        do {
            List<R> page = new ArrayList<>();
            String[] onward = {null};
            String pageUrl = url + "&limit=" + PAGE
                    + (next == null ? "" : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
            try {
                ListRequest.get(client, kind, pageUrl, body -> read(body, kind, page::add, token -> onward[0] = token));
            } catch (ListRequest.Expired e) {
                // The snapshot the token pointed at was compacted away (after about 5 minutes): the API server's
                // answer carries a token that goes on from the same place on current data, if it can.
                if (next == null || e.onward() == null || e.onward().isEmpty()) {
                    throw e;
                }
                next = e.onward();
                continue;
            }
            for (R object : page) {
                if (!each.test(object)) {
                    return false;
                }
            }
            next = onward[0];
        } while (next != null && !next.isEmpty());
        return true;
    }

    /**
     * Reads {@code {"metadata": {"continue": ...}, "items": [ ... ]}} one item at a time, each handed on as a lean
     * copy; every other field is skipped.
     */
    static <R extends HasMetadata> boolean read(
            InputStream body, Class<R> kind, Predicate<? super R> each, Consumer<String> continueToken)
            throws IOException {
        ObjectReader reader = MAPPER.readerFor(kind);
        try (JsonParser parser = MAPPER.getFactory().createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("a list answer that is not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
                    JsonNode meta = MAPPER.readTree(parser);
                    continueToken.accept(meta.path("continue").asText(null));
                } else if ("items".equals(field) && value == JsonToken.START_ARRAY) {
                    for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
                        if (item != JsonToken.START_OBJECT) {
                            throw new IOException("a list item that is not an object");
                        }
                        R object = reader.readValue(parser);
                        if (!each.test(lean(object))) {
                            return false;
                        }
                    }
                } else {
                    parser.skipChildren();
                }
            }
            return true;
        }
    }

    /**
     * A copy of {@code object} with only what the mover and the rebalancer read and write: kind, name, namespace, uid,
     * resourceVersion, generation, the labels the operator reads, creation and deletion, and a component's Kyma. What
     * they keep between a list and their writes stays small whatever a tenant wrote on the object.
     */
    @SuppressWarnings("unchecked")
    static <R extends HasMetadata> R lean(R object) {
        R copy;
        try {
            copy = (R) object.getClass().getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot copy a " + object.getKind(), e);
        }
        ObjectMeta meta = object.getMetadata();
        Map<String, String> labels = new HashMap<>();
        if (meta.getLabels() != null) {
            meta.getLabels().forEach((key, value) -> {
                if (LeanCache.KEPT_LABELS.contains(key)) {
                    labels.put(key, value);
                }
            });
        }
        copy.setMetadata(new ObjectMetaBuilder()
                .withName(meta.getName())
                .withNamespace(meta.getNamespace())
                .withUid(meta.getUid())
                .withResourceVersion(meta.getResourceVersion())
                .withGeneration(meta.getGeneration())
                .withLabels(labels)
                .withCreationTimestamp(meta.getCreationTimestamp())
                .withDeletionTimestamp(meta.getDeletionTimestamp())
                .build());
        if (object instanceof HelmComponent component && component.getSpec() != null) {
            HelmComponentSpec spec = new HelmComponentSpec();
            spec.setKyma(component.getSpec().getKyma());
            ((HelmComponent) copy).setSpec(spec);
        }
        return copy;
    }
}
