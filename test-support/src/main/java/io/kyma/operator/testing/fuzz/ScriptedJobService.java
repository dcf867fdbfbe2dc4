package io.kyma.operator.testing.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A job service whose next answers can be told to take any shape: refusals of every status code, bodies that are not
 * JSON or not UTF-8, another job's record, state fields at the wrong depth, a start without an id, a slow answer. It
 * keeps the jobs it started by idempotency key and their true state, so a test can ask which ran, which still run and
 * which were asked for. Jobs end by the wall clock: {@code params.durationMs} after their start (default 500), failed
 * when {@code params.fail} is {@code true}.
 */
public final class ScriptedJobService implements AutoCloseable {
    /** How one answer is given. */
    public enum Shape {
        NORMAL,
        /** 503 with a JSON error. */
        UNAVAILABLE,
        /** 500 with a text body. */
        SERVER_ERROR,
        /** 429 with Retry-After: 1. */
        TOO_MANY,
        /** 404 for any job. */
        NOT_FOUND,
        /** 409 "already finished". */
        CONFLICT,
        /** 200 with a body that is not JSON. */
        GARBAGE,
        /** The true answer, with an {@code error} object carrying {@code "state": "failed"} beside it. */
        NESTED_STATE,
        /** Another job's record: another id, state succeeded. */
        OTHER_JOB,
        /** The true answer with a log of bytes that are not UTF-8. */
        NOT_UTF8,
        /** The true answer with an empty log. */
        EMPTY_LOG,
        /** A start answered 201 with a Location header and no body. */
        LOCATION_ONLY,
        /** The true answer, after a delay. */
        SLOW
    }

    /** A job as the service knows it: its idempotency key and its true state. */
    public record Job(String id, String key, String name, String state) {
        public boolean running() {
            return state.equals("running");
        }
    }

    private static final Pattern JOB = Pattern.compile("^/jobs/([^/]+)$");
    private static final Pattern FIELD =
            Pattern.compile("\"(name|idempotencyKey|durationMs|fail)\"\\s*:\\s*\"([^\"]*)\"");

    private final HttpServer server;
    private final ExecutorService workers = Executors.newFixedThreadPool(8, r -> {
        Thread thread = new Thread(r, "scripted-job-service");
        thread.setDaemon(true);
        return thread;
    });
    private final Deque<Shape> next = new ArrayDeque<>();
    private final Map<String, Started> jobs = new ConcurrentHashMap<>();
    private final Map<String, String> idsByKey = new ConcurrentHashMap<>();
    private final Duration slow;

    private record Started(String id, String key, String name, long startedNanos, long durationNanos, boolean fail) {}

    private final Map<String, Long> cancelled = new ConcurrentHashMap<>();

    private ScriptedJobService(Duration slow) throws IOException {
        this.slow = slow;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(workers);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts on a free port of 127.0.0.1; a {@link Shape#SLOW} answer waits {@code slow}. */
    public static ScriptedJobService start(Duration slow) {
        try {
            return new ScriptedJobService(slow);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next {@code count} answers, whatever they answer, take {@code shape}. */
    public synchronized void answerNext(Shape shape, int count) {
        for (int i = 0; i < count; i++) {
            next.addLast(shape);
        }
    }

    private synchronized Shape take() {
        Shape shape = next.pollFirst();
        return shape == null ? Shape.NORMAL : shape;
    }

    /** Every job started, with its state now. */
    public List<Job> jobs() {
        return jobs.values().stream().map(this::view).toList();
    }

    private Job view(Started job) {
        String state;
        if (cancelled.containsKey(job.id())) {
            state = "cancelled";
        } else if (System.nanoTime() - job.startedNanos() < job.durationNanos()) {
            state = "running";
        } else {
            state = job.fail() ? "failed" : "succeeded";
        }
        return new Job(job.id(), job.key(), job.name(), state);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            Shape shape = take();
            switch (shape) {
                case UNAVAILABLE ->
                    respond(exchange, 503, "{\"error\":\"unavailable\"}".getBytes(StandardCharsets.UTF_8));
                case SERVER_ERROR -> respond(exchange, 500, "internal error".getBytes(StandardCharsets.UTF_8));
                case TOO_MANY -> {
                    exchange.getResponseHeaders().add("Retry-After", "1");
                    respond(exchange, 429, "{\"error\":\"slow down\"}".getBytes(StandardCharsets.UTF_8));
                }
                case NOT_FOUND ->
                    respond(exchange, 404, "{\"error\":\"no such job\"}".getBytes(StandardCharsets.UTF_8));
                case CONFLICT ->
                    respond(exchange, 409, "{\"error\":\"already finished\"}".getBytes(StandardCharsets.UTF_8));
                case GARBAGE -> respond(exchange, 200, "<html>proxy error</html>".getBytes(StandardCharsets.UTF_8));
                default -> answer(exchange, method, path, body, shape);
            }
        }
    }

    private void answer(HttpExchange exchange, String method, String path, String body, Shape shape)
            throws IOException {
        if (shape == Shape.SLOW) {
            try {
                Thread.sleep(slow.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (method.equals("POST") && path.equals("/jobs")) {
            Started job = start(body);
            if (shape == Shape.LOCATION_ONLY) {
                exchange.getResponseHeaders().add("Location", "/jobs/" + job.id());
                respond(exchange, 201, new byte[0]);
            } else {
                respond(exchange, 201, ("{\"id\":\"" + job.id() + "\"}").getBytes(StandardCharsets.UTF_8));
            }
            return;
        }
        Matcher m = JOB.matcher(path);
        Started job = m.matches() ? jobs.get(m.group(1)) : null;
        if (job == null) {
            respond(exchange, 404, "{\"error\":\"no such job\"}".getBytes(StandardCharsets.UTF_8));
            return;
        }
        if (method.equals("DELETE") && view(job).running()) {
            cancelled.put(job.id(), System.nanoTime());
        }
        Job now = view(job);
        String id = now.id();
        String state = now.state();
        if (shape == Shape.OTHER_JOB) {
            id = UUID.randomUUID().toString();
            state = "succeeded";
        }
        byte[] log = switch (shape) {
            case EMPTY_LOG -> new byte[0];
            case NOT_UTF8 -> new byte[] {'s', 't', 'e', 'p', ' ', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '\\', 'n'};
            default -> ("job " + now.name() + " " + state + "\\n").getBytes(StandardCharsets.UTF_8);
        };
        String nested = shape == Shape.NESTED_STATE ? ",\"error\":{\"state\":\"failed\",\"message\":\"retried\"}" : "";
        byte[] head = ("{\"id\":\"" + id + "\",\"name\":\"" + now.name() + "\",\"state\":\"" + state + "\"" + nested
                        + ",\"log\":\"")
                .getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}".getBytes(StandardCharsets.UTF_8);
        byte[] answer = new byte[head.length + log.length + tail.length];
        System.arraycopy(head, 0, answer, 0, head.length);
        System.arraycopy(log, 0, answer, head.length, log.length);
        System.arraycopy(tail, 0, answer, head.length + log.length, tail.length);
        respond(exchange, 200, answer);
    }

    private synchronized Started start(String body) {
        Map<String, String> fields = new java.util.HashMap<>();
        Matcher m = FIELD.matcher(body);
        while (m.find()) {
            fields.put(m.group(1), m.group(2));
        }
        String key = fields.getOrDefault("idempotencyKey", "");
        String known = idsByKey.get(key);
        if (known != null) {
            return jobs.get(known);
        }
        long duration = Duration.ofMillis(Long.parseLong(fields.getOrDefault("durationMs", "500")))
                .toNanos();
        Started job = new Started(
                UUID.randomUUID().toString(),
                key,
                fields.getOrDefault("name", "job"),
                System.nanoTime(),
                duration,
                Boolean.parseBoolean(fields.getOrDefault("fail", "false")));
        jobs.put(job.id(), job);
        idsByKey.put(key, job.id());
        return job;
    }

    private static void respond(HttpExchange exchange, int code, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
