package io.kyma.operator.common.status;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The operator's frequent writes (a status patch, a create) sent through the client's own HTTP client, so that its
 * interceptors, retries and request timeout apply, but put together directly: fabric8's generic path parses and
 * re-joins the URL with regular expressions several times per request and builds a resource handle per call, which
 * a profile of the operator under load showed costing about as much as serializing the body. Failures are the same
 * {@link KubernetesClientException}s, with the API server's {@code Status}, as fabric8's own calls give.
 */
public final class PreparedRequest {
    static final String APPLY = "application/apply-patch+yaml";
    static final String JSON = "application/json";

    /** The part of a kind's URL after the API server's: {@code apis/GROUP/VERSION/}, and its plural. */
    private static final ClassValue<String[]> PATHS = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            @SuppressWarnings("unchecked")
            Class<? extends HasMetadata> kind = (Class<? extends HasMetadata>) type;
            String group = HasMetadata.getGroup(kind);
            String prefix = group == null || group.isEmpty()
                    ? "api/" + HasMetadata.getVersion(kind) + "/"
                    : "apis/" + group + "/" + HasMetadata.getVersion(kind) + "/";
            return new String[] {prefix, HasMetadata.getPlural(kind)};
        }
    };

    private PreparedRequest() {}

    /**
     * Creates {@code resource} as fabric8's {@code client.resource(resource).create()} does: a POST of the whole
     * object to its kind's collection in its namespace.
     *
     * @return the object as the API server stored it
     * @throws KubernetesClientException with the API server's code (409 if the name is taken) if it refused
     */
    public static <P extends HasMetadata> P create(KubernetesClient client, P resource) {
        @SuppressWarnings("unchecked")
        Class<P> type = (Class<P>) resource.getClass();
        return send(
                client,
                resource,
                "POST",
                collection(client.getConfiguration().getMasterUrl(), resource).toString(),
                JSON,
                client.getKubernetesSerialization().asJson(resource),
                type,
                "creating");
    }

    /** The URL of {@code resource}'s kind in its namespace, without a trailing slash. */
    static StringBuilder collection(String masterUrl, HasMetadata resource) {
        String[] path = PATHS.get(resource.getClass());
        StringBuilder url = new StringBuilder(160).append(masterUrl);
        if (url.isEmpty() || url.charAt(url.length() - 1) != '/') {
            url.append('/');
        }
        url.append(path[0]);
        if (resource instanceof Namespaced) {
            url.append("namespaces/")
                    .append(segment(resource.getMetadata().getNamespace(), "namespace"))
                    .append('/');
        }
        return url.append(path[1]);
    }

    /**
     * The status subresource's URL with the patch's query: {@code fieldManager}, and {@code force=true} for apply.
     */
    static String url(String masterUrl, HasMetadata resource, String contentType, String fieldManager) {
        StringBuilder url = collection(masterUrl, resource);
        url.append('/')
                .append(segment(resource.getMetadata().getName(), "name"))
                .append("/status");
        url.append(APPLY.equals(contentType) ? "?force=true&fieldManager=" : "?fieldManager=")
                .append(URLEncoder.encode(fieldManager, StandardCharsets.UTF_8));
        return url.toString();
    }

    /** A name or namespace as one path segment: the API server's names need no escaping, anything else is refused. */
    private static String segment(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new KubernetesClientException("a write needs the resource's " + what);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.')) {
                throw new KubernetesClientException("not a valid " + what + " of a Kubernetes object: " + value);
            }
        }
        return value;
    }

    /**
     * The body of a server-side apply of {@code statusOnly}'s status, guarded by {@code resourceVersion}: what fabric8
     * writes for the whole object when it holds only its identity and status, without walking ObjectMeta's bean.
     */
    static String applyBody(KubernetesSerialization serialization, HasMetadata statusOnly, String resourceVersion) {
        Object status = statusOnly instanceof CustomResource<?, ?> custom ? custom.getStatus() : null;
        StringBuilder body = new StringBuilder(512).append("{\"apiVersion\":");
        quoted(body, statusOnly.getApiVersion()).append(",\"kind\":");
        quoted(body, statusOnly.getKind()).append(",\"metadata\":{\"name\":");
        quoted(body, statusOnly.getMetadata().getName());
        if (statusOnly.getMetadata().getNamespace() != null) {
            quoted(body.append(",\"namespace\":"), statusOnly.getMetadata().getNamespace());
        }
        if (resourceVersion != null) {
            quoted(body.append(",\"resourceVersion\":"), resourceVersion);
        }
        body.append('}');
        if (status != null) {
            body.append(",\"status\":").append(serialization.asJson(status));
        }
        return body.append('}').toString();
    }

    private static StringBuilder quoted(StringBuilder out, String value) {
        out.append('"');
        JsonStringEncoder.getInstance().quoteAsString(value, out);
        return out.append('"');
    }

    /**
     * Sends {@code body} as a PATCH of {@code resource}'s status and reads the answer as {@code type}.
     *
     * @throws KubernetesClientException with the API server's code and message if it refused the write, or code 0
     *             if it could not be reached
     */
    public static <P extends HasMetadata> P patch(
            KubernetesClient client, P resource, String contentType, String body, String fieldManager, Class<P> type) {
        return send(
                client,
                resource,
                "PATCH",
                url(client.getConfiguration().getMasterUrl(), resource, contentType, fieldManager),
                contentType,
                body,
                type,
                "writing the status of");
    }

    private static <P extends HasMetadata> P send(
            KubernetesClient client,
            P resource,
            String method,
            String url,
            String contentType,
            String body,
            Class<P> type,
            String doing) {
        var http = client.getHttpClient();
        HttpRequest.Builder builder = http.newHttpRequestBuilder().uri(url).method(method, contentType, body);
        int timeout = client.getConfiguration().getRequestTimeout();
        if (timeout > 0) {
            builder.timeout(timeout, TimeUnit.MILLISECONDS);
        }
        HttpRequest request = builder.build();
        HttpResponse<byte[]> response;
        try {
            response = http.sendAsync(request, byte[].class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException(failed(doing, resource) + ": interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof KubernetesClientException failure) {
                throw failure.copyAsCause(); // with this caller's stack, as fabric8 does
            }
            throw new KubernetesClientException(failed(doing, resource) + ": " + cause.getMessage(), cause);
        }
        if (!response.isSuccessful()) {
            throw OperationSupport.requestFailure(
                    request, OperationSupport.createStatus(response, client.getKubernetesSerialization()));
        }
        try {
            return client.getKubernetesSerialization().unmarshal(new ByteArrayInputStream(response.body()), type);
        } catch (RuntimeException e) {
            throw new KubernetesClientException(
                    failed(doing, resource) + ": cannot read the answer: " + e.getMessage(), e);
        }
    }

    private static String failed(String doing, HasMetadata resource) {
        return doing + " " + resource.getKind() + " " + resource.getMetadata().getNamespace() + "/"
                + resource.getMetadata().getName() + " failed";
    }
}
