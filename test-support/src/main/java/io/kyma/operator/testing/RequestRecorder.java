package io.kyma.operator.testing;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;

/** Records every API request a client made and how it was answered, so tests can count writes. */
public final class RequestRecorder implements Interceptor {
    private static final Pattern RESOURCE_PATH = Pattern.compile(
            "^/api(?:s/([^/]+))?/v[^/]+(?:/namespaces/[^/]+)?/([a-z0-9.-]+)(?:/([^/?]+))?(?:/([a-z]+))?");

    /** One answered request, with the RBAC verb it needs and its query string (empty if none). */
    public record Request(
            String method,
            String group,
            String resource,
            String name,
            String subresource,
            String verb,
            int code,
            String query) {
        public boolean isWrite() {
            return !method.equals("GET") && code < 400;
        }

        /** The resource as RBAC names it, for example {@code kymas/status}. */
        public String rbacResource() {
            return subresource.isEmpty() ? resource : resource + "/" + subresource;
        }
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        String path = request.uri().getPath();
        Matcher m = RESOURCE_PATH.matcher(path);
        boolean matched = m.find();
        String group = matched && m.group(1) != null ? m.group(1) : "";
        String resource = matched ? m.group(2) : path;
        String name = matched && m.group(3) != null ? m.group(3) : "";
        String subresource = matched && m.group(4) != null ? m.group(4) : "";
        String method = request.method().toUpperCase(Locale.ROOT);
        String query = request.uri().getQuery() == null ? "" : request.uri().getQuery();
        requests.add(new Request(
                method, group, resource, name, subresource, verb(method, name, query), response.code(), query));
    }

    private static String verb(String method, String name, String query) {
        return switch (method) {
            case "GET" -> query.contains("watch=true") ? "watch" : name.isEmpty() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> method.toLowerCase(Locale.ROOT);
        };
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Successful writes (create, update, patch, delete) to a resource type, for example {@code kymas}. */
    public long writes(String resource) {
        return requests.stream()
                .filter(r -> r.isWrite() && r.resource().equals(resource))
                .count();
    }

    /** Successful writes to the status subresource of a resource type. */
    public long statusWrites(String resource) {
        return requests.stream()
                .filter(r -> r.isWrite()
                        && r.resource().equals(resource)
                        && r.subresource().equals("status"))
                .count();
    }

    public void clear() {
        requests.clear();
    }
}
