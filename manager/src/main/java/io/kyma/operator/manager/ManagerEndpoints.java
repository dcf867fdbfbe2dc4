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

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.manager.config.EndpointSettings;

/** The HTTP endpoints of the manager: {@code /metrics} on one address, {@code /healthz} and {@code /readyz} on another. */
public final class ManagerEndpoints implements AutoCloseable {
    private final List<HttpServer> servers = new ArrayList<>();
    private Optional<InetSocketAddress> metricsAddress = Optional.empty();
    private Optional<InetSocketAddress> probesAddress = Optional.empty();

    public ManagerEndpoints(EndpointSettings settings, Supplier<String> scrape, BooleanSupplier ready) {
        settings.metrics().ifPresent(address -> {
            HttpServer server = listen(address, "--metrics-bind-address");
            server.createContext(
                    "/metrics",
                    exchange -> respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", scrape.get()));
            metricsAddress = Optional.of(server.getAddress());
        });
        settings.healthProbes().ifPresent(address -> {
            HttpServer server = listen(address, "--health-probe-bind-address");
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

    private HttpServer listen(EndpointSettings.BindAddress address, String flag) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(address.host(), address.port()), 16);
            server.setExecutor(Executors.newFixedThreadPool(2, DaemonThreads.named("http" + flag.replace("--", "-"))));
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
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
