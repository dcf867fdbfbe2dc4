package io.kyma.operator.manager.shard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

/**
 * One list request of a {@link StreamedList}: a GET of a kind's collection through the client's HTTP client, its
 * answer handed to a reader as it streams in, never held whole. An answer other than a list is an exception; a 410
 * (the continue token's snapshot is gone) is an {@link Expired}, with the token to go on with if the API server gave
 * one.
 */
final class ListRequest {
    private static final long TIMEOUT_SECONDS = 60;
    /** The most of an error answer read: its Status says what went wrong in far less. */
    private static final int STATUS_BYTES = 64 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Reads a list answer as it streams in; what it returns, the request returns. */
    @FunctionalInterface
    interface BodyReader {
        boolean read(InputStream body) throws IOException;
    }

    /** A 410: the continue token's snapshot is gone; {@link #onward} goes on from the same place, if given. */
    static final class Expired extends KubernetesClientException {
        private final String onward;

        Expired(String onward, String message) {
            super(message, 410, null);
            this.onward = onward;
        }

        /** The continue token that goes on from the same place on current data; null or empty if none. */
        String onward() {
            return onward;
        }
    }

    private ListRequest() {}

    /**
     * The URL of a list of {@code kind} that {@code labelSelector} selects, to which the caller adds its other
     * parameters ({@code &name=value}).
     *
     * @param namespace the namespace to list in; empty for all
     */
    static String url(URL master, Class<? extends HasMetadata> kind, Optional<String> namespace, String labelSelector) {
        String apiVersion = HasMetadata.getApiVersion(kind);
        String base = master.toString().replaceAll("/+$", "");
        String group = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String in = namespace.map(ns -> "/namespaces/" + ns).orElse("");
        return base + group + in + "/" + HasMetadata.getPlural(kind) + "?labelSelector="
                + URLEncoder.encode(labelSelector, StandardCharsets.UTF_8);
    }

    /** The list request, its answer read by {@code reader}; an answer other than a list is an exception. */
    static boolean get(KubernetesClient client, Class<? extends HasMetadata> kind, String url, BodyReader reader) {
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
                throw failure(kind, response.code(), body);
            }
            return reader.read(body);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the list of " + HasMetadata.getPlural(kind), e);
        }
    }

    /** What an error answer of HTTP {@code code} says, from the Status in its body: an {@link Expired} for a 410. */
    static KubernetesClientException failure(Class<? extends HasMetadata> kind, int code, InputStream body)
            throws IOException {
        JsonNode status = MAPPER.readTree(body.readNBytes(STATUS_BYTES));
        String message = status == null ? "" : status.path("message").asText("");
        if (code == 410) {
            return new Expired(
                    status == null
                            ? null
                            : status.path("metadata").path("continue").asText(null),
                    message);
        }
        return new KubernetesClientException(
                "cannot list " + HasMetadata.getPlural(kind) + ": HTTP " + code + " " + message, code, null);
    }
}
