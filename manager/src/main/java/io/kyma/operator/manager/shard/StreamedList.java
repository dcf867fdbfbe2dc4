package io.kyma.operator.manager.shard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
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
 */
final class StreamedList {
    /** Where a list is read from. */
    enum Source {
        WATCH_CACHE,
        PAGES
    }

    /** Objects per page from etcd. */
    static final int PAGE = 500;

    private static final long TIMEOUT_SECONDS = 60;
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
        if (source == Source.WATCH_CACHE) {
            return get(
                    client,
                    kind,
                    url(client, kind, namespace, labelSelector) + "&resourceVersion=0",
                    body -> read(body, kind, each, token -> {}));
        }
        String next = null;
        do {
            List<R> page = new ArrayList<>();
            String[] onward = {null};
            String url = url(client, kind, namespace, labelSelector) + "&limit=" + PAGE
                    + (next == null ? "" : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
            try {
                get(client, kind, url, body -> read(body, kind, page::add, token -> onward[0] = token));
            } catch (Expired e) {
                // The snapshot the token pointed at was compacted away (after about 5 minutes): the API server's
                // answer carries a token that goes on from the same place on current data, if it can.
                if (next == null || e.onward == null || e.onward.isEmpty()) {
                    throw e;
                }
                next = e.onward;
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

    /** The list request, its answer read by {@code reader}; an answer other than a list is an exception. */
    private static boolean get(
            KubernetesClient client, Class<? extends HasMetadata> kind, String url, BodyReader reader) {
        HttpRequest request =
                client.getHttpClient().newHttpRequestBuilder().uri(url).build();
        CompletableFuture<HttpResponse<InputStream>> sent =
                client.getHttpClient().sendAsync(request, InputStream.class);
        HttpResponse<InputStream> response;
        try {
            response = sent.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            sent.cancel(true); // an answer that comes later is closed, not left holding its connection
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while listing " + HasMetadata.getPlural(kind), e);
        } catch (ExecutionException | TimeoutException e) {
            sent.cancel(true);
            throw new KubernetesClientException("cannot list " + HasMetadata.getPlural(kind) + ": " + e, e);
        }
        try (InputStream body = response.body()) {
            if (!response.isSuccessful()) {
                JsonNode status = MAPPER.readTree(body.readNBytes(64 * 1024));
                String message = status == null ? "" : status.path("message").asText("");
                if (response.code() == 410) {
                    throw new Expired(
                            status == null
                                    ? null
                                    : status.path("metadata").path("continue").asText(null),
                            message);
                }
                throw new KubernetesClientException(
                        "cannot list " + HasMetadata.getPlural(kind) + ": HTTP " + response.code() + " " + message,
                        response.code(),
                        null);
            }
            return reader.read(body);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the list of " + HasMetadata.getPlural(kind), e);
        }
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

    private static String url(
            KubernetesClient client,
            Class<? extends HasMetadata> kind,
            Optional<String> namespace,
            String labelSelector) {
        String apiVersion = HasMetadata.getApiVersion(kind);
        String base = client.getMasterUrl().toString().replaceAll("/+$", "");
        String group = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String in = namespace.map(ns -> "/namespaces/" + ns).orElse("");
        return base + group + in + "/" + HasMetadata.getPlural(kind) + "?labelSelector="
                + URLEncoder.encode(labelSelector, StandardCharsets.UTF_8);
    }

    @FunctionalInterface
    private interface BodyReader {
        boolean read(InputStream body) throws IOException;
    }

    /** A 410: the continue token's snapshot is gone; {@link #onward} goes on from the same place, if given. */
    private static final class Expired extends KubernetesClientException {
        private final String onward;

        Expired(String onward, String message) {
            super(message, 410, null);
            this.onward = onward;
        }
    }
}
