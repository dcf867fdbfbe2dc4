package io.kyma.operator.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The remote job service's API on the JDK's HTTP client: one client for all Runs, so connections are reused, with
 * connect and request timeouts so that a hung server cannot hold a reconcile thread.
 */
public final class RemoteJobClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http;
    private final Duration requestTimeout;

    public RemoteJobClient(Duration connectTimeout, Duration requestTimeout) {
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .build();
        this.requestTimeout = requestTimeout;
    }

    /** Starts a job, or finds the one already started with the same idempotency key; returns its id. */
    public String start(URI server, String name, Map<String, String> params, String idempotencyKey)
            throws RemoteJobException {
        String body = JSON.createObjectNode().put("name", name).put("idempotencyKey", idempotencyKey)
                .set("params", JSON.valueToTree(params)).toString();
        JsonNode answer = call(HttpRequest.newBuilder(server.resolve("/jobs"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), true);
        return field(answer, "id");
    }

    public RemoteJob get(URI server, String id) throws RemoteJobException {
        JsonNode answer = call(HttpRequest.newBuilder(jobUri(server, id)).GET(), false);
        return new RemoteJob(field(answer, "id"), field(answer, "state"), answer.path("log").asText(""),
                answer.path("startedAt").asText(null), answer.path("finishedAt").isNull() ? null
                        : answer.path("finishedAt").asText(null));
    }

    /** Cancels a job; a job the server does not know is already gone and not an error. */
    public void cancel(URI server, String id) throws RemoteJobException {
        try {
            call(HttpRequest.newBuilder(jobUri(server, id)).DELETE(), false);
        } catch (RemoteJobException e) {
            if (e.kind() != RemoteJobException.Kind.NOT_FOUND) {
                throw e;
            }
        }
    }

    private static URI jobUri(URI server, String id) {
        return server.resolve("/jobs/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8));
    }

    private JsonNode call(HttpRequest.Builder request, boolean starting) throws RemoteJobException {
        HttpRequest built = request.timeout(requestTimeout).build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RemoteJobException(RemoteJobException.Kind.UNREACHABLE,
                    built.method() + " " + built.uri() + ": " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, "interrupted", e);
        }
        int code = response.statusCode();
        if (code >= 500) {
            throw new RemoteJobException(RemoteJobException.Kind.SERVER_ERROR,
                    built.method() + " " + built.uri() + " answered " + code + ": " + errorText(response.body()), null);
        }
        if (code == 404 && !starting) {
            throw new RemoteJobException(RemoteJobException.Kind.NOT_FOUND, "the server does not know job "
                    + built.uri().getPath(), null);
        }
        if (code >= 400) {
            throw new RemoteJobException(starting ? RemoteJobException.Kind.REJECTED
                    : RemoteJobException.Kind.BAD_ANSWER, "the server refused the job (" + code + "): "
                            + errorText(response.body()), null);
        }
        try {
            JsonNode node = JSON.readTree(response.body());
            if (node == null || !node.isObject()) {
                throw new RemoteJobException(RemoteJobException.Kind.BAD_ANSWER,
                        built.uri() + " answered something that is not a JSON object", null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new RemoteJobException(RemoteJobException.Kind.BAD_ANSWER,
                    built.uri() + " answered something that is not JSON", e);
        }
    }

    private static String field(JsonNode node, String name) throws RemoteJobException {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw new RemoteJobException(RemoteJobException.Kind.BAD_ANSWER, "the answer has no " + name, null);
        }
        return value.asText();
    }

    private static String errorText(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.hasNonNull("error")) {
                return node.get("error").asText();
            }
        } catch (JsonProcessingException e) {
            // not JSON: show the start of it
        }
        return body == null ? "" : body.substring(0, Math.min(200, body.length()));
    }

    private static String describe(IOException e) {
        String type = e instanceof java.net.ConnectException ? "connection refused"
                : e instanceof java.net.http.HttpTimeoutException ? "timed out" : e.getClass().getSimpleName();
        return e.getMessage() == null ? type : type + " (" + e.getMessage() + ")";
    }
}
