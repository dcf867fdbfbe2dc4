package io.kyma.operator.manager.leader;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Sees the lease writes that the API server accepted (a coordination.k8s.io Lease created, replaced or patched, answered
 * 2xx) whose holder is this replica, and reports the renew time they wrote: the moment from which the lease runs for
 * the other replicas. fabric8's elector renews with a JSON merge patch of the whole Lease, so the body has both.
 */
final class LeaseRenewals implements Interceptor {
    private static final Pattern LEASE_PATH =
            Pattern.compile("/apis/coordination\\.k8s\\.io/v1/namespaces/[^/]+/leases(/[^/]+)?");
    private static final Pattern HOLDER = Pattern.compile("\"holderIdentity\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern RENEW_TIME = Pattern.compile("\"renewTime\"\\s*:\\s*\"([^\"]*)\"");

    private final String identity;
    private final Consumer<Instant> renewed;

    LeaseRenewals(String identity, Consumer<Instant> renewed) {
        this.identity = identity;
        this.renewed = renewed;
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        if (HttpResponse.isSuccessful(response.code())
                && leaseWrite(request.method(), request.uri().getPath())) {
            renewTime(request.bodyString(), identity).ifPresent(renewed);
        }
    }

    /** Whether a request creates or updates a Lease. */
    static boolean leaseWrite(String method, String path) {
        return (method.equals("PATCH") || method.equals("PUT") || method.equals("POST"))
                && LEASE_PATH.matcher(path).matches();
    }

    /** The renew time of a Lease written as JSON, if {@code identity} holds it and the time can be read. */
    static Optional<Instant> renewTime(String lease, String identity) {
        if (lease == null) {
            return Optional.empty();
        }
        Matcher holder = HOLDER.matcher(lease);
        Matcher renewTime = RENEW_TIME.matcher(lease);
        if (!holder.find() || !holder.group(1).equals(identity) || !renewTime.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(renewTime.group(1)).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
