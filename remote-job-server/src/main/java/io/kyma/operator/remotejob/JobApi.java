package io.kyma.operator.remotejob;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The job API as plain request handling, with no HTTP in it: {@code POST /jobs}, {@code GET /jobs/{id}} and
 * {@code DELETE /jobs/{id}}. Every input gets an answer; nothing it is sent can make it throw.
 */
final class JobApi {
    static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    static final double DEFAULT_LINES_PER_SECOND = 1;
    private static final Pattern JOB_PATH = Pattern.compile("^/jobs/([A-Za-z0-9-]{1,64})$");
    private static final Pattern DURATION = Pattern.compile("^(\\d+(?:\\.\\d+)?)(ms|s|m|h)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JobStore store;

    JobApi(JobStore store) {
        this.store = store;
    }

    /** An answer: status code and JSON body. */
    record Response(int status, String body) {}

    Response handle(String method, String path, String body) {
        return handle(method, path, null, body);
    }

    /**
     * @param query the request's query, or null; {@code tailBytes=N} on {@code GET /jobs/{id}} asks for only the last N
     *        bytes of the log (cut at a character boundary), with {@code logTruncated: true} when the start was left out
     */
    Response handle(String method, String path, String query, String body) {
        try {
            if (path.equals("/jobs")) {
                return method.equals("POST") ? create(body) : error(405, "use POST on /jobs");
            }
            Matcher m = JOB_PATH.matcher(path);
            if (!m.matches()) {
                return error(404, "no such path " + path);
            }
            return switch (method) {
                case "GET" -> {
                    int tail = tailBytes(query);
                    yield tail < -1
                            ? error(400, "tailBytes must be a whole number from 0 to 2147483647")
                            : store.get(m.group(1))
                                    .map(job -> new Response(200, describe(job, tail)))
                                    .orElseGet(() -> error(404, "no job " + m.group(1)));
                }
                case "DELETE" ->
                    store.get(m.group(1)).map(this::cancel).orElseGet(() -> error(404, "no job " + m.group(1)));
                default -> error(405, "use GET or DELETE on /jobs/{id}");
            };
        } catch (RuntimeException e) {
            return error(500, "internal error: " + e.getClass().getSimpleName());
        }
    }

    private Response create(String body) {
        JsonNode request;
        try {
            request = JSON.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            return error(400, "malformed JSON: " + e.getOriginalMessage());
        }
        if (request == null || !request.isObject()) {
            return error(400, "the body must be a JSON object with name, params and idempotencyKey");
        }
        String name = text(request, "name");
        String key = text(request, "idempotencyKey");
        if (name == null || name.isBlank()) {
            return error(400, "missing field: name");
        }
        if (key == null || key.isBlank()) {
            return error(400, "missing field: idempotencyKey");
        }
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode paramsNode = request.get("params");
        if (paramsNode != null && !paramsNode.isNull()) {
            if (!paramsNode.isObject()) {
                return error(400, "params must be an object of strings");
            }
            paramsNode
                    .fields()
                    .forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
        }
        Duration duration;
        double linesPerSecond;
        try {
            duration = duration(params);
            linesPerSecond = params.containsKey("linesPerSecond")
                    ? Double.parseDouble(params.get("linesPerSecond"))
                    : DEFAULT_LINES_PER_SECOND;
            if (!(linesPerSecond > 0 && linesPerSecond <= 1000)) {
                return error(400, "params.linesPerSecond must be above 0 and at most 1000");
            }
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        }
        if (params.containsKey("reject")) {
            return error(422, "job refused: " + params.get("reject"));
        }
        boolean fail = Boolean.parseBoolean(params.getOrDefault("fail", "false"));
        JobStore.Created created = store.create(name, params, key, duration, fail, linesPerSecond);
        ObjectNode answer = JSON.createObjectNode().put("id", created.job().id);
        return new Response(created.isNew() ? 201 : 200, answer.toString());
    }

    private Response cancel(Job job) {
        job.cancel(store.clock().instant());
        return new Response(200, describe(job, -1));
    }

    /** -1 for the whole log, -2 for a value that is not a tail length. */
    private static int tailBytes(String query) {
        if (query == null) {
            return -1;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("tailBytes=")) {
                try {
                    int value = Integer.parseInt(pair.substring("tailBytes=".length()));
                    return value < 0 ? -2 : value;
                } catch (NumberFormatException e) {
                    return -2;
                }
            }
        }
        return -1;
    }

    private String describe(Job job, int tailBytes) {
        Instant now = store.clock().instant();
        String log = job.log(now);
        byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
        boolean cut = tailBytes >= 0 && bytes.length > tailBytes;
        if (cut) {
            int from = bytes.length - tailBytes;
            while (from < bytes.length && (bytes[from] & 0xC0) == 0x80) {
                from++; // not inside a character
            }
            log = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        }
        ObjectNode node = JSON.createObjectNode()
                .put("id", job.id)
                .put("name", job.name)
                .put("state", job.state(now).name())
                .put("log", log)
                .put("startedAt", job.startedAt.toString());
        if (cut) {
            node.put("logTruncated", true);
        }
        Instant finished = job.finishedAt(now);
        if (finished == null) {
            node.putNull("finishedAt");
        } else {
            node.put("finishedAt", finished.toString());
        }
        return node.toString();
    }

    private static Duration duration(Map<String, String> params) {
        if (params.containsKey("durationSeconds")) {
            double seconds;
            try {
                seconds = Double.parseDouble(params.get("durationSeconds"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("params.durationSeconds must be a number");
            }
            if (!(seconds >= 0 && seconds <= 86_400)) {
                throw new IllegalArgumentException("params.durationSeconds must be between 0 and 86400");
            }
            return Duration.ofMillis((long) (seconds * 1000));
        }
        if (params.containsKey("duration")) {
            Matcher m = DURATION.matcher(params.get("duration"));
            if (!m.matches()) {
                throw new IllegalArgumentException("params.duration must look like 500ms, 30s, 2m or 1h");
            }
            double amount = Double.parseDouble(m.group(1));
            long millis = switch (m.group(2)) {
                case "ms" -> (long) amount;
                case "s" -> (long) (amount * 1000);
                case "m" -> (long) (amount * 60_000);
                default -> (long) (amount * 3_600_000);
            };
            if (millis > 86_400_000) {
                throw new IllegalArgumentException("params.duration must be at most 24h");
            }
            return Duration.ofMillis(millis);
        }
        return DEFAULT_DURATION;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isTextual() ? null : value.asText();
    }

    static Response error(int status, String message) {
        return new Response(
                status, JSON.createObjectNode().put("error", message).toString());
    }
}
