package io.kyma.operator.manager.limits;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Client-side QPS/burst for the fabric8 client, which has none of its own (client-go's {@code rest.Config{QPS,
 * Burst}}). Every request takes a token before it is sent and waits for it; nothing fails. A watch is one request
 * and so counts once, when it opens.
 * <p>
 * Requests wait in a line per namespace (the one in the request's path; requests across namespaces, such as the
 * informers' lists and watches, share a line of their own), and the lines are served in turn: one namespace's
 * writes, however many, delay another namespace's request by at most one token per namespace waiting.
 * <p>
 * Requests for Leases take no token: a leader that waits in line behind its namespace's writes, or behind a turn for
 * each of a thousand busy namespaces, misses its renew deadline and exits, as the API server's priority and fairness
 * serves leader election at a level of its own for that reason. They are a few a second at most (one renewal per
 * retry period, and the shard mover's look at each shard's Lease).
 */
public final class ClientRateLimiter implements Interceptor {
    public static final String NAME = "client-rate-limiter";
    private static final Pattern NAMESPACED = Pattern.compile("/(?:api/v1|apis/[^/]+/[^/]+)/namespaces/([^/]+)");
    private static final Pattern LEASE =
            Pattern.compile("/apis/coordination\\.k8s\\.io/[^/]+/namespaces/[^/]+/leases(?:/[^/]+)?$");
    private final FairTokenQueue bucket;
    private final Clock clock;
    private final Consumer<Duration> waitRecorder;

    public ClientRateLimiter(FairTokenQueue bucket, Clock clock, Consumer<Duration> waitRecorder) {
        this.bucket = bucket;
        this.clock = clock;
        this.waitRecorder = waitRecorder;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        acquireFor(request.uri());
    }

    /** Waits for the token a request to {@code uri} needs, if any. */
    void acquireFor(URI uri) {
        if (!lease(uri)) {
            acquire(flowOf(uri));
        }
    }

    /** Whether the request is for a Lease (or the Leases of a namespace), which takes no token. */
    static boolean lease(URI uri) {
        String path = uri == null ? null : uri.getRawPath();
        // the substring first: every request passes here, and almost none is for a Lease
        return path != null && path.contains("/leases") && LEASE.matcher(path).find();
    }

    /** Waits for a token in the line of {@code flow}. */
    void acquire(String flow) {
        Instant start = clock.instant();
        FairTokenQueue.Ticket ticket = bucket.enqueue(flow);
        try {
            for (Duration wait = bucket.waitFor(ticket); !wait.isZero(); wait = bucket.waitFor(ticket)) {
                TimeUnit.NANOSECONDS.sleep(wait.toNanos());
            }
        } catch (InterruptedException e) {
            // The caller is being stopped; let the request go and the interrupt surface there. The ticket stays in
            // line: the request is sent now, and its token, when it comes, is spent on it.
            Thread.currentThread().interrupt();
        }
        waitRecorder.accept(Duration.between(start, clock.instant()));
    }

    /**
     * The namespace a request is for, from its path ({@code /api/v1/namespaces/NS/...} or
     * {@code /apis/GROUP/VERSION/namespaces/NS/...}, after any prefix of the API server's address); {@code ""} for a
     * request across namespaces.
     */
    static String flowOf(URI uri) {
        String path = uri == null ? null : uri.getRawPath();
        if (path == null) {
            return "";
        }
        Matcher namespaced = NAMESPACED.matcher(path);
        return namespaced.find() ? namespaced.group(1) : "";
    }
}
