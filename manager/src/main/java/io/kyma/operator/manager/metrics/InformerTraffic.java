package io.kyma.operator.manager.metrics;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Counts what the informers ask of the API server, by resource: every list (its first page; the manager itself only
 * lists through informers, so each one after the first per informer is a relist, which at 72,000 objects costs
 * minutes) and every watch started (each one after the first per informer follows a watch that ended: the API
 * server's timeout, a lost connection, or a watcher it closed for being too slow).
 */
public final class InformerTraffic implements Interceptor {
    public static final String NAME = "informer-traffic";
    /** A collection: /api/v1[/namespaces/ns]/plural or /apis/group/version[/namespaces/ns]/plural. */
    private static final Pattern COLLECTION = Pattern.compile(
            "/(?:api/[^/]+|apis/[^/]+/[^/]+)(?:/namespaces/[^/]+)?/([a-z0-9.-]+)/?");

    /** What a request is to an informer. */
    enum Kind {
        LIST, WATCH
    }

    /** A request as this counts it: a list or a watch of a resource. */
    record Call(Kind kind, String resource) {
    }

    private final OperatorMetrics metrics;

    public InformerTraffic(OperatorMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        classify(request.method(), request.uri()).ifPresent(call -> (call.kind() == Kind.LIST
                ? metrics.informerLists(call.resource()) : metrics.watchStarts(call.resource())).increment());
    }

    /** A list's first page or a watch of a collection; empty for anything else (a get, a write, a later page). */
    static Optional<Call> classify(String method, URI uri) {
        if (!"GET".equalsIgnoreCase(method)) {
            return Optional.empty();
        }
        Matcher collection = COLLECTION.matcher(uri.getRawPath());
        if (!collection.matches() || collection.group(1).equals("namespaces")) {
            return Optional.empty();
        }
        String query = uri.getRawQuery() == null ? "" : "&" + uri.getRawQuery();
        if (query.contains("&watch=true") || query.contains("&watch=1")) {
            return Optional.of(new Call(Kind.WATCH, collection.group(1)));
        }
        if (query.contains("&continue=")) {
            return Optional.empty();
        }
        return Optional.of(new Call(Kind.LIST, collection.group(1)));
    }
}
