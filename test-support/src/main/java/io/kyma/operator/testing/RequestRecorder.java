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
            "^/apis?(?:/[^/]+)?/v[^/]+(?:/namespaces/[^/]+)?/([a-z0-9.-]+)(?:/([^/?]+))?(?:/([a-z]+))?");

    /** One answered request. */
    public record Request(String method, String resource, String name, String subresource, int code) {
        public boolean isWrite() {
            return !method.equals("GET") && code < 400;
        }
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        Matcher m = RESOURCE_PATH.matcher(request.uri().getPath());
        String resource = m.find() ? m.group(1) : request.uri().getPath();
        String name = m.group(2) == null ? "" : m.group(2);
        String subresource = m.group(3) == null ? "" : m.group(3);
        requests.add(new Request(request.method().toUpperCase(Locale.ROOT), resource, name, subresource,
                response.code()));
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Successful writes (create, update, patch, delete) to a resource type, for example {@code kymas}. */
    public long writes(String resource) {
        return requests.stream().filter(r -> r.isWrite() && r.resource().equals(resource)).count();
    }

    /** Successful writes to the status subresource of a resource type. */
    public long statusWrites(String resource) {
        return requests.stream()
                .filter(r -> r.isWrite() && r.resource().equals(resource) && r.subresource().equals("status"))
                .count();
    }

    public void clear() {
        requests.clear();
    }
}
