package io.kyma.operator.remotejob;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.kyma.operator.flags.CommandLine;

/**
 * The remote job service over HTTP: the job API of {@link JobApi}, fault injection, and an admin API
 * ({@code GET/POST /admin/faults}, {@code GET /admin/stats}, {@code POST /admin/refuse}).
 */
public final class JobServer implements AutoCloseable {
    private static final int MAX_BODY = 1 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String host;
    private final String prefix;
    private final Clock clock;
    private volatile JobStore store;
    private volatile JobApi api;
    private final Faults faults = new Faults();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong startRequests = new AtomicLong();
    private final Map<String, AtomicLong> startsPerKey = new ConcurrentHashMap<>();
    private final ExecutorService workers = Executors.newFixedThreadPool(16, daemon("remote-job-server"));
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(daemon("remote-job-timer"));
    private volatile int port;
    private volatile HttpServer server;

    private JobServer(String host, int port, Clock clock) {
        this(host, port, clock, "");
    }

    private JobServer(String host, int port, Clock clock, String prefix) {
        this.host = host;
        this.prefix = prefix;
        this.port = port;
        this.clock = clock;
        this.store = new JobStore(clock, startsPerKey);
        this.api = new JobApi(store);
    }

    /** Starts listening on {@code host:port} (port 0 picks a free one). */
    public static JobServer start(String host, int port) {
        JobServer server = new JobServer(host, port, Clock.systemUTC());
        server.listen();
        return server;
    }

    /** Starts with the job API under {@code prefix} (for example {@code /api}: jobs at {@code /api/jobs}). */
    public static JobServer startUnder(String host, int port, String prefix) {
        JobServer server = new JobServer(host, port, Clock.systemUTC(), prefix);
        server.listen();
        return server;
    }

    /** Starts, but refuses connections for {@code refuseFor} first, as a server that is down would. */
    public static JobServer startAfter(String host, int port, Duration refuseFor) {
        JobServer server = new JobServer(host, port, Clock.systemUTC());
        server.timer.schedule(server::listen, refuseFor.toMillis(), TimeUnit.MILLISECONDS);
        return server;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://" + (host.equals("0.0.0.0") ? "127.0.0.1" : host) + ":" + port + prefix;
    }

    public Faults faults() {
        return faults;
    }

    /** Jobs started since the service began; repeated requests with a known idempotency key start none. */
    public long jobsStarted() {
        return store.started();
    }

    /** Job API requests answered, faulted ones included. */
    public long requests() {
        return requests.get();
    }

    /**
     * When the job {@code id} ends or ended on its own, by this service's clock; empty for a job this service does not
     * know (never started, or lost in a {@link #restart()}). A cancelled job ends at its cancel, not here.
     */
    public Optional<Instant> endsAt(String id) {
        return store.get(id).map(Job::endsAt);
    }

    /** Requests to start a job, answered or not, repeated ones included. */
    public long startRequests() {
        return startRequests.get();
    }

    /**
     * The jobs each idempotency key started since the service began, across {@link #restart()}s: a client that
     * starts each job once has 1 for every key.
     */
    public Map<String, Long> jobsStartedPerKey() {
        Map<String, Long> copy = new TreeMap<>();
        startsPerKey.forEach((key, count) -> copy.put(key, count.get()));
        return copy;
    }

    /** Stops accepting connections for {@code period}, then listens again on the same port. */
    public synchronized void refuseFor(Duration period) {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        timer.schedule(this::listen, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Listens again at once, ending a {@link #refuseFor} before its period. */
    public void listenAgain() {
        listen();
    }

    /** A restart that loses every job, as a service without storage does: known ids are answered with 404 after it. */
    public synchronized void restart() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        store = new JobStore(clock, startsPerKey);
        api = new JobApi(store);
        listen();
    }

    public boolean listening() {
        return server != null;
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        timer.shutdownNow();
        workers.shutdownNow();
    }

    private synchronized void listen() {
        if (server != null) {
            return;
        }
        try {
            HttpServer created = HttpServer.create(new InetSocketAddress(host, port), 256);
            created.setExecutor(workers);
            created.createContext(prefix + "/jobs", this::jobs);
            created.createContext("/admin", this::admin);
            created.start();
            port = created.getAddress().getPort();
            server = created;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port, e);
        }
    }

    private void jobs(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            if (exchange.getRequestMethod().equals("POST")) {
                startRequests.incrementAndGet();
            }
            String body = readBody(exchange);
            JobApi.Response response;
            if (faults.failNow()) {
                response = JobApi.error(503, "injected failure");
            } else {
                response = body == null
                        ? JobApi.error(413, "request body larger than 1 MiB")
                        : api.handle(
                                exchange.getRequestMethod(),
                                exchange.getRequestURI().getPath().substring(prefix.length()),
                                exchange.getRequestURI().getRawQuery(),
                                body);
            }
            sleep(
                    exchange.getRequestMethod().equals("POST")
                            ? faults.latency().plus(faults.startLatency())
                            : faults.latency());
            if (faults.garbageNow()) {
                respond(exchange, 200, "text/html", "<html>Bad Gateway</html>\u0000{");
                return;
            }
            String answer = faults.reportedState() == null
                    ? response.body()
                    : response.body().replace("\"state\":\"running\"", "\"state\":\"" + faults.reportedState() + "\"");
            switch (faults.body()) {
                case NORMAL -> respond(exchange, response.status(), "application/json", answer);
                case HUGE ->
                    respond(
                            exchange,
                            response.status(),
                            "application/json",
                            answer
                                    + " ".repeat((int) Math.max(
                                            0, Math.min(Integer.MAX_VALUE - 16, faults.size() - answer.length()))));
                case HUGE_ERROR ->
                    respond(
                            exchange,
                            503,
                            "application/json",
                            JobApi.error(503, "x".repeat((int) Math.min(Integer.MAX_VALUE - 16, faults.size())))
                                    .body());
                case ENDLESS -> endless(exchange);
                case SLOW -> slow(exchange, response.status(), answer);
            }
        }
    }

    /** Spaces until the client hangs up, bounded so that the service stops by itself: 1 GiB or a minute. */
    private static void endless(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        byte[] chunk = " ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        try (OutputStream out = exchange.getResponseBody()) {
            out.write('{');
            for (long sent = 0; sent < 1L << 30 && System.nanoTime() < deadline; sent += chunk.length) {
                out.write(chunk);
            }
        } catch (IOException e) {
            // the client hung up, as it should
        }
    }

    /** A valid answer, one byte at a time, the pause between bytes the latency fault or 1 s. */
    private void slow(HttpExchange exchange, int status, String answer) throws IOException {
        Duration pause =
                faults.latency().compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : faults.latency();
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (byte b : answer.getBytes(StandardCharsets.UTF_8)) {
                out.write(b);
                out.flush();
                sleep(pause);
            }
        } catch (IOException e) {
            // the client gave up, as it should
        }
    }

    private void admin(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/admin/stats") && method.equals("GET")) {
                respond(
                        exchange,
                        200,
                        "application/json",
                        JSON.createObjectNode()
                                .put("jobsStarted", jobsStarted())
                                .put("requests", requests())
                                .toString());
            } else if (path.equals("/admin/faults") && method.equals("GET")) {
                respond(exchange, 200, "application/json", describeFaults());
            } else if (path.equals("/admin/faults") && method.equals("POST")) {
                try {
                    JsonNode request = JSON.readTree(readBody(exchange));
                    if (request.has("errorRate")) {
                        faults.errorRate(request.get("errorRate").asDouble());
                    }
                    if (request.has("latencyMillis")) {
                        faults.latency(
                                Duration.ofMillis(request.get("latencyMillis").asLong()));
                    }
                    if (request.has("garbageRate")) {
                        faults.garbageRate(request.get("garbageRate").asDouble());
                    }
                    respond(exchange, 200, "application/json", describeFaults());
                } catch (IOException | RuntimeException e) {
                    respond(
                            exchange,
                            400,
                            "application/json",
                            JobApi.error(400, "bad faults: " + e.getMessage()).body());
                }
            } else if (path.equals("/admin/refuse") && method.equals("POST")) {
                String seconds = exchange.getRequestURI().getQuery();
                long millis;
                try {
                    millis = (long) (Double.parseDouble(seconds == null ? "" : seconds.replace("seconds=", "")) * 1000);
                } catch (NumberFormatException e) {
                    respond(
                            exchange,
                            400,
                            "application/json",
                            JobApi.error(400, "use /admin/refuse?seconds=N").body());
                    return;
                }
                respond(exchange, 202, "application/json", "{}");
                timer.execute(() -> refuseFor(Duration.ofMillis(millis)));
            } else {
                respond(
                        exchange,
                        404,
                        "application/json",
                        JobApi.error(404, "no such admin path " + path).body());
            }
        }
    }

    private String describeFaults() {
        return JSON.createObjectNode()
                .put("errorRate", faults.errorRate())
                .put("latencyMillis", faults.latency().toMillis())
                .put("garbageRate", faults.garbageRate())
                .toString();
    }

    /** The body, or null when it is larger than the limit. */
    private static String readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            return bytes.length > MAX_BODY ? null : new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(Duration duration) {
        if (duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicLong count = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** {@code java -jar remote-job-server.jar [--port 9090] [--host 127.0.0.1] [faults]}; see {@link ServerOptions}. */
    public static void main(String[] args) throws InterruptedException {
        Optional<ServerOptions> read =
                CommandLine.read("remote-job-server", ServerOptions.USAGE, () -> ServerOptions.parse(args));
        if (read.isEmpty()) {
            return;
        }
        ServerOptions options = read.get();
        JobServer server = options.refuseFor().isZero()
                ? start(options.host(), options.port())
                : startAfter(options.host(), options.port(), options.refuseFor());
        server.faults()
                .errorRate(options.errorRate())
                .latency(options.latency())
                .garbageRate(options.garbageRate());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.printf(
                "remote-job-server listening on %s:%d (error rate %s, latency %d ms, garbage rate %s%s)%n",
                options.host(),
                options.port(),
                options.errorRate(),
                options.latency().toMillis(),
                options.garbageRate(),
                options.refuseFor().isZero()
                        ? ""
                        : ", refusing connections for the first "
                                + options.refuseFor().toMillis() + " ms");
        Thread.currentThread().join();
    }
}
