package io.kyma.operator.manager.metrics;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Counts what the informers ask of the API server, by resource: every list (its first page; the manager itself only
 * lists through informers, so each one after the first per informer is a relist, which at 72,000 objects costs
 * minutes) and every watch started (each one after the first per informer follows a watch that ended: the API
 * server's timeout, a lost connection, or a watcher it closed for being too slow). A watch that ended sooner than the
 * client ends its watches itself ({@link #CLIENT_ENDS_WATCHES_AFTER}) was ended by something else: the API server
 * closing a watcher that fell behind, a lost connection, a resource version too old to resume from. Those are counted
 * as ended early, each when the watch that follows it starts.
 */
public final class InformerTraffic implements Interceptor {
    public static final String NAME = "informer-traffic";
    /** A collection: /api/v1[/namespaces/ns]/plural or /apis/group/version[/namespaces/ns]/plural. */
    private static final Pattern COLLECTION =
            Pattern.compile("/(?:api/[^/]+|apis/[^/]+/[^/]+)(?:/namespaces/[^/]+)?/([a-z0-9.-]+)/?");

    /** What a request is to an informer. */
    enum Kind {
        LIST,
        WATCH
    }

    /** A request as this counts it: a list or a watch of a resource. */
    record Call(Kind kind, String resource) {}

    /**
     * fabric8's informers end each watch themselves after five to ten minutes (its Reflector's minimum timeout and a
     * random part), and ask the API server for twice the minimum.
     */
    static final Duration CLIENT_ENDS_WATCHES_AFTER = Duration.ofMinutes(5);

    private final OperatorMetrics metrics;
    private final Clock clock;
    /** When the latest watch of each informer started, by its path and selectors. */
    private final Map<String, Instant> watchStarted = new ConcurrentHashMap<>();

    public InformerTraffic(OperatorMetrics metrics, Clock clock) {
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        classify(request.method(), request.uri()).ifPresent(call -> {
            if (call.kind() == Kind.LIST) {
                metrics.informerLists(call.resource()).increment();
                return;
            }
            metrics.watchStarts(call.resource()).increment();
            Instant now = clock.instant();
            Instant before = watchStarted.put(informer(request.uri()), now);
            if (before != null && Duration.between(before, now).compareTo(CLIENT_ENDS_WATCHES_AFTER) < 0) {
                metrics.watchesEndedEarly(call.resource()).increment();
            }
        });
    }

    /** Which informer a watch is of: its path and its label and field selectors. */
    static String informer(URI uri) {
        StringBuilder key = new StringBuilder(uri.getRawPath());
        if (uri.getRawQuery() != null) {
            for (String parameter : uri.getRawQuery().split("&")) {
                if (parameter.startsWith("labelSelector=") || parameter.startsWith("fieldSelector=")) {
                    key.append('?').append(parameter);
                }
            }
        }
        return key.toString();
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
