package io.kyma.operator.run;

import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * HTTPS clients, one per server name, each sending that name as its TLS server name. A call to a name connects to the
 * address the operator checked (the URL's host an address), and the certificate is still checked against the name,
 * which the JDK checks against the server name sent. The JDK's client is never given a tenant's name to look up: it
 * would look it up again, outside any check, when it retries a request on its own after a connection closed unanswered.
 * The most recently used are kept, at least {@link #MAX} and one per call that may be in flight; each has a selector
 * thread of its own.
 */
final class TlsClients {
    /** Clients kept at least. */
    static final int MAX = 32;

    private static final Method SHUTDOWN = shutdownMethod();

    private final SSLContext context;
    private final Supplier<HttpClient.Builder> builder;
    private final Map<String, HttpClient> clients = new LinkedHashMap<>(16, 0.75f, true);
    private final int kept;

    /**
     * @param builder a client as every job-service call is made, without its TLS settings
     * @param inFlight the most calls in flight at once: that many clients at least are kept
     */
    TlsClients(SSLContext context, Supplier<HttpClient.Builder> builder, int inFlight) {
        this.kept = Math.max(MAX, inFlight);
        this.context = context;
        this.builder = builder;
    }

    /**
     * Sends {@code request} (to an address) through the client of {@code host}, under the lock that evicts clients:
     * a client is never shut down between being chosen and being given its request.
     *
     * @throws IllegalArgumentException for a name TLS cannot send as a server name
     */
    synchronized <T> CompletableFuture<HttpResponse<T>> send(
            String host, HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return forName(host).sendAsync(request, handler);
    }

    private HttpClient forName(String host) {
        HttpClient client = clients.get(host);
        if (client == null) {
            SSLParameters parameters = context.getDefaultSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(host)));
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            client = builder.get().sslContext(context).sslParameters(parameters).build();
            clients.put(host, client);
            if (clients.size() > kept) {
                var eldest = clients.entrySet().iterator();
                shutDown(eldest.next().getValue());
                eldest.remove();
            }
        }
        return client;
    }

    synchronized void close() {
        clients.values().forEach(TlsClients::shutDown);
        clients.clear();
    }

    /** Lets its calls in flight finish and stops its thread (Java 21 on); before, it stops once unreferenced. */
    static void shutDown(HttpClient client) {
        if (SHUTDOWN != null) {
            try {
                SHUTDOWN.invoke(client);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // left to end once unreferenced
            }
        }
    }

    private static Method shutdownMethod() {
        try {
            return HttpClient.class.getMethod("shutdown");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
