package io.kyma.operator.manager;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLParameters;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;

import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.manager.config.EndpointSettings;
import io.kyma.operator.manager.secure.MetricsAccess;
import io.kyma.operator.manager.secure.SecureMetrics;
import io.kyma.operator.manager.secure.ServingCertificate;

/**
 * The HTTP endpoints of the manager: {@code /metrics} on one address, {@code /healthz} and {@code /readyz} on another.
 * With {@link SecureMetrics}, {@code /metrics} is served over HTTPS and only to requests its access check allows.
 */
public final class ManagerEndpoints implements AutoCloseable {
    /**
     * Each exchange, TLS handshake and request line included, runs on one of these threads: a client that connects
     * and stalls holds one until the JDK's request timeout ({@link #limitTheJdkServer}) closes it.
     */
    static final int THREADS = 4;

    /**
     * Limits of the JDK's HTTP server, read once, when it is first used: the manager's {@code main} sets them before
     * anything else (tests leave their own servers alone). A value given on the command line stays. Without them a
     * client that sends one byte and stops holds a thread for ever, and {@link #THREADS} such clients stop /metrics.
     */
    static void limitTheJdkServer() {
        setUnlessGiven("sun.net.httpserver.maxReqTime", "10"); // seconds to read a request, handshake included
        setUnlessGiven("sun.net.httpserver.maxRspTime", "30"); // seconds to write an answer
        setUnlessGiven("jdk.httpserver.maxConnections", "64");
        setUnlessGiven("sun.net.httpserver.maxReqHeaderSize", "32768");
    }

    private final List<HttpServer> servers = new ArrayList<>();
    private Optional<InetSocketAddress> metricsAddress = Optional.empty();
    private Optional<InetSocketAddress> probesAddress = Optional.empty();

    public ManagerEndpoints(
            EndpointSettings settings, Supplier<String> scrape, BooleanSupplier ready, Optional<SecureMetrics> secure) {
        settings.metrics().ifPresent(address -> {
            HttpServer server = listen(address, "--metrics-bind-address", secure.map(s -> s.certificate()));
            server.createContext("/metrics", exchange -> {
                if (secure.isPresent() && !allowed(exchange, secure.get().access())) {
                    return;
                }
                respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", scrape.get());
            });
            metricsAddress = Optional.of(server.getAddress());
        });
        settings.healthProbes().ifPresent(address -> {
            HttpServer server = listen(address, "--health-probe-bind-address", Optional.empty());
            server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain", "ok"));
            server.createContext("/readyz", exchange -> {
                boolean isReady = ready.getAsBoolean();
                respond(exchange, isReady ? 200 : 503, "text/plain", isReady ? "ok" : "not ready");
            });
            probesAddress = Optional.of(server.getAddress());
        });
    }

    public Optional<InetSocketAddress> metricsAddress() {
        return metricsAddress;
    }

    public Optional<InetSocketAddress> probesAddress() {
        return probesAddress;
    }

    @Override
    public void close() {
        servers.forEach(s -> s.stop(0));
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** Answers the request itself unless it is a GET (or HEAD) of /metrics that {@code access} allows. */
    private static boolean allowed(HttpExchange exchange, MetricsAccess access) throws IOException {
        if (!exchange.getRequestURI().getPath().equals("/metrics")) {
            respond(exchange, 404, "text/plain", "not found");
            return false;
        }
        if (!exchange.getRequestMethod().equals("GET")
                && !exchange.getRequestMethod().equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            respond(exchange, 405, "text/plain", "only GET and HEAD");
            return false;
        }
        MetricsAccess.Decision decision = access.check(
                Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization")), "get", "/metrics");
        if (decision == MetricsAccess.Decision.ALLOWED) {
            return true;
        }
        if (decision == MetricsAccess.Decision.UNAUTHENTICATED) {
            boolean gaveOne = exchange.getRequestHeaders().containsKey("Authorization");
            exchange.getResponseHeaders()
                    .set("WWW-Authenticate", gaveOne ? "Bearer error=\"invalid_token\"" : "Bearer");
        } else if (decision == MetricsAccess.Decision.THROTTLED || decision == MetricsAccess.Decision.UNAVAILABLE) {
            exchange.getResponseHeaders().set("Retry-After", "1");
        }
        respond(exchange, decision.status, "text/plain", decision.message);
        return false;
    }

    private HttpServer listen(
            EndpointSettings.BindAddress address, String flag, Optional<ServingCertificate> certificate) {
        try {
            InetSocketAddress socket = new InetSocketAddress(address.host(), address.port());
            HttpServer server;
            if (certificate.isPresent()) {
                HttpsServer https = HttpsServer.create(socket, 16);
                https.setHttpsConfigurator(
                        new HttpsConfigurator(certificate.get().sslContext()) {
                            @Override
                            public void configure(HttpsParameters params) {
                                SSLParameters tls = getSSLContext().getDefaultSSLParameters();
                                tls.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
                                params.setSSLParameters(tls);
                            }
                        });
                server = https;
            } else {
                server = HttpServer.create(socket, 16);
            }
            server.setExecutor(
                    Executors.newFixedThreadPool(THREADS, DaemonThreads.named("http" + flag.replace("--", "-"))));
            server.start();
            servers.add(server);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + " (" + flag + ")", e);
        }
    }

    private static void respond(HttpExchange exchange, int code, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        if (exchange.getRequestMethod().equals("HEAD")) {
            // the headers a GET would get, without its body
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
