package io.kyma.operator.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.SSLUtils;

/**
 * An HTTP proxy on loopback between one client (an operator replica) and a kube-apiserver of this machine, for
 * fault injection at the level of requests: it answers a share of requests with 429 and {@code Retry-After}, 500,
 * 503 or 504 instead of forwarding them, or closes their connection without an answer, delays answers, ends watches, delays or loses watch events (a lost event
 * ends the watch with "410 Gone", as the API server does for a watcher that fell behind, so the client relists), and
 * can cut the client off entirely (a partition). The client speaks plain HTTP to the proxy; the proxy speaks TLS to
 * the API server with the credentials of the configuration it was given. It records every request it saw: which
 * proxy (the client's name), the verb, the path, the answer, when it began and ended.
 */
public final class ApiFaultProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of(
            "host",
            "connection",
            "content-length",
            "expect",
            "upgrade",
            "te",
            "transfer-encoding",
            "keep-alive",
            "http2-settings",
            "proxy-connection",
            "trailer");

    /** One request as the proxy saw it; {@code injected} when the proxy answered it instead of the API server. */
    public record Exchange(
            String client,
            String method,
            String path,
            boolean watch,
            int status,
            boolean injected,
            Instant start,
            Instant end) {
        /** A request that changes something on the API server (not a read, not a watch). */
        public boolean write() {
            return !method.equals("GET") && !method.equals("HEAD");
        }

        public boolean succeeded() {
            return status >= 200 && status < 300;
        }
    }

    /**
     * A fault for ordinary requests (watches are left alone): answer {@code share} of them (0..1) with {@code status},
     * with a {@code Retry-After} header of {@code retryAfter} when it is not null; status {@link #RESET} closes the
     * connection instead, with no answer at all.
     */
    public record Fault(int status, double share, Duration retryAfter) {
        /** The status of a fault that closes the connection without an answer, as a reset one does. */
        public static final int RESET = 0;

        /** Closes the connection of {@code share} of the requests without answering them. */
        public static Fault reset(double share) {
            return new Fault(RESET, share, null);
        }
    }

    private final String name;
    private final URI upstream;
    private final Config upstreamConfig;
    private final HttpClient http;
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "api-fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final Set<WatchStream> watches = ConcurrentHashMap.newKeySet();
    private final AtomicLong watchEventsLost = new AtomicLong();
    private final AtomicLong watchesEnded = new AtomicLong();
    private final AtomicLong websocketRefusals = new AtomicLong();
    private final Random random = new Random(42);
    private final int port;
    private volatile HttpServer server;
    private volatile Fault fault;
    private volatile Duration answerDelay = Duration.ZERO;
    private volatile Duration eventDelay = Duration.ZERO;

    private ApiFaultProxy(String name, Config upstreamConfig) throws IOException {
        this.name = name;
        this.upstreamConfig = upstreamConfig;
        this.upstream = URI.create(upstreamConfig.getMasterUrl().replaceAll("/+$", ""));
        InetAddress host = InetAddress.getByName(upstream.getHost());
        if (!host.isLoopbackAddress()) {
            throw new IllegalArgumentException("an API fault proxy forwards to loopback only, not " + upstream);
        }
        try {
            this.http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .sslContext(SSLUtils.sslContext(upstreamConfig))
                    .connectTimeout(Duration.ofSeconds(5))
                    .executor(workers)
                    .build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot use the credentials of " + upstream, e);
        }
        this.server = listen(0);
        this.port = server.getAddress().getPort();
    }

    /** A proxy named {@code name} to the API server of {@code upstream} (a loopback address), on a free port. */
    public static ApiFaultProxy to(Config upstream, String name) {
        try {
            return new ApiFaultProxy(name, upstream);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    /** The address a client uses: plain HTTP on loopback. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** A client configuration that goes through this proxy, read from a kubeconfig as a deployed operator's is. */
    public Config clientConfig() {
        return Config.fromKubeconfig(kubeconfigYaml());
    }

    /** A kubeconfig that goes through this proxy, for a process of its own. */
    public String kubeconfigYaml() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: proxy
                  cluster:
                    server: %s
                contexts:
                - name: proxy
                  context:
                    cluster: proxy
                    user: proxy
                current-context: proxy
                users:
                - name: proxy
                  user: {}
                """.formatted(url());
    }

    /** Injects {@code fault} into ordinary requests from now on; null for none. */
    public void inject(Fault fault) {
        this.fault = fault;
    }

    /** Holds every ordinary answer back by {@code delay} (zero for none). */
    public void delayAnswers(Duration delay) {
        this.answerDelay = delay;
    }

    /** Holds every watch event back by {@code delay} (zero for none): the client's cache lags. */
    public void delayWatchEvents(Duration delay) {
        this.eventDelay = delay;
    }

    /**
     * Every open watch loses its next event and then ends with "410 Gone", so the client misses what changed and must
     * list again, as a watcher that fell behind the API server's window does.
     */
    public void loseNextWatchEvents() {
        for (WatchStream watch : watches) {
            watch.loseNext = true;
        }
    }

    /** Withdraws {@link #loseNextWatchEvents()} from the watches that have not lost an event yet. */
    public void keepWatchEvents() {
        for (WatchStream watch : watches) {
            watch.loseNext = false;
        }
    }

    /** Ends every open watch now (cleanly, as the API server ends one at its timeout or on a restart). */
    public void endWatches() {
        for (WatchStream watch : watches) {
            watch.end();
        }
    }

    /** Cuts the client off: connections end and new ones are refused until {@link #heal()}. */
    public synchronized void partition() {
        if (server != null) {
            server.stop(0);
            server = null;
            endWatches();
        }
    }

    /** Listens again on the same port after a {@link #partition()}. */
    public synchronized void heal() {
        if (server == null) {
            try {
                server = listen(port);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Every request seen so far, in the order they ended. */
    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    public long watchEventsLost() {
        return watchEventsLost.get();
    }

    /** Watches the proxy ended (by {@link #endWatches()}, a partition or a lost event). */
    public long watchesEnded() {
        return watchesEnded.get();
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        endWatches();
        workers.shutdownNow();
    }

    private HttpServer listen(int onPort) throws IOException {
        HttpServer listening = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 128);
        listening.setExecutor(workers);
        listening.createContext("/", this::handle);
        listening.start();
        return listening;
    }

    private void handle(HttpExchange exchange) {
        Instant start = Instant.now();
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        boolean watch = query != null && (query.contains("watch=true") || query.contains("watch=1"));
        int status = 502;
        boolean injected = false;
        boolean websocket =
                "websocket".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Upgrade"));
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (websocket) {
                // Like kubectl proxy: no WebSocket here. A plain 200 makes the client watch over a hanging GET,
                // which this proxy can see event by event.
                websocketRefusals.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            Fault now = fault;
            if (!watch && now != null && draw(now.share())) {
                injected = true;
                status = now.status();
                if (status != Fault.RESET) {
                    answer(exchange, now);
                } // else closing the exchange before any answer closes the connection
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            URI.create(upstream + exchange.getRequestURI().toString()))
                    .method(
                            method,
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((header, values) -> {
                if (!HOP_BY_HOP.contains(header.toLowerCase(Locale.ROOT))) {
                    values.forEach(v -> request.header(header, v));
                }
            });
            if (upstreamConfig.getOauthToken() != null) {
                request.setHeader("Authorization", "Bearer " + upstreamConfig.getOauthToken());
            }
            if (!watch) {
                request.timeout(Duration.ofSeconds(60));
            }
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            status = response.statusCode();
            response.headers().map().forEach((header, values) -> {
                if (!HOP_BY_HOP.contains(header.toLowerCase(Locale.ROOT)) && !header.startsWith(":")) {
                    exchange.getResponseHeaders().put(header, values);
                }
            });
            if (watch && status == 200) {
                stream(exchange, response.body());
            } else {
                byte[] answer;
                try (InputStream in = response.body()) {
                    answer = in.readAllBytes();
                }
                pause(answerDelay);
                exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
                exchange.getResponseBody().write(answer);
            }
        } catch (IOException e) {
            // the client or the API server went away (or a partition cut it): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!websocket) {
                exchanges.add(new Exchange(name, method, path, watch, status, injected, start, Instant.now()));
            }
        }
    }

    private synchronized boolean draw(double share) {
        return share >= 1 || random.nextDouble() < share;
    }

    private static void answer(HttpExchange exchange, Fault fault) throws IOException {
        String reason = switch (fault.status()) {
            case 429 -> "TooManyRequests";
            case 504 -> "Timeout";
            case 503 -> "ServiceUnavailable";
            default -> "InternalError";
        };
        byte[] status = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"injected by the fault proxy\",\"reason\":\"" + reason + "\",\"code\":"
                        + fault.status() + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        if (fault.retryAfter() != null) {
            exchange.getResponseHeaders()
                    .set("Retry-After", Long.toString(fault.retryAfter().toSeconds()));
        }
        exchange.sendResponseHeaders(fault.status(), status.length);
        exchange.getResponseBody().write(status);
    }

    /**
     * Copies a watch one event (line) at a time, so events can be delayed or lost. It begins with one space, which a
     * stream of JSON objects may carry between them: a client whose WebSocket this proxy refused watches over a plain
     * GET, and the fabric8 client counts such a watch as started only once its first bytes arrive, so without them an
     * informer of a quiet resource would never say it watches (and an operator behind the proxy would never be ready),
     * where the same watch over a WebSocket is started once it opens.
     */
    private void stream(HttpExchange exchange, InputStream events) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        WatchStream watch = new WatchStream(events, exchange);
        watches.add(watch);
        try (events) {
            OutputStream out = exchange.getResponseBody();
            out.write(' ');
            out.flush();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int read;
            while (!watch.ended && (read = events.read(buffer)) >= 0) {
                for (int i = 0; i < read; i++) {
                    line.write(buffer[i]);
                    if (buffer[i] != '\n') {
                        continue;
                    }
                    if (watch.loseNext) {
                        watchEventsLost.incrementAndGet();
                        out.write(("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                                        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version"
                                        + " (events lost by the fault proxy)\",\"reason\":\"Expired\",\"code\":410}}\n")
                                .getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        watch.end();
                        return;
                    }
                    pause(eventDelay);
                    line.writeTo(out);
                    out.flush();
                    line.reset();
                }
            }
        } finally {
            watches.remove(watch);
        }
    }

    private static void pause(Duration delay) {
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** An open watch: ending it closes the API server's stream, which ends the copy loop. */
    private final class WatchStream {
        private final InputStream events;
        private final HttpExchange exchange;
        private volatile boolean ended;
        private volatile boolean loseNext;

        WatchStream(InputStream events, HttpExchange exchange) {
            this.events = events;
            this.exchange = exchange;
        }

        void end() {
            if (ended) {
                return;
            }
            ended = true;
            watchesEnded.incrementAndGet();
            try {
                events.close();
            } catch (IOException e) {
                // already closed
            }
            exchange.close();
        }
    }

    /** The requests seen, as lines, for a failure message. */
    public String describe(int limit) {
        List<String> lines = new ArrayList<>();
        for (Exchange e : exchanges) {
            if (lines.size() == limit) {
                break;
            }
            lines.add(e.method() + " " + e.path() + " " + e.status() + (e.injected() ? " (injected)" : ""));
        }
        return String.join("\n", lines);
    }
}
