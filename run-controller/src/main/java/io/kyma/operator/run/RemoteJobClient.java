package io.kyma.operator.run;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The remote job service's API on the JDK's HTTP client: one client for all Runs, so connections are reused. The
 * service is not trusted: every exchange, body included, ends within the request timeout; every answer is read
 * through a size limit; what it says reaches a status only checked, capped and stripped of control characters; and
 * the status says whether the service was unreachable or answered badly, never which network error it was, so a Run
 * cannot be used to probe the cluster's network.
 */
public final class RemoteJobClient implements JobService {
    public static final String UNREACHABLE = "the job service is unreachable or did not answer in time";
    private static final Logger LOG = LoggerFactory.getLogger(RemoteJobClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Job ids as the reference service makes them, and then some; anything else is not the job API. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final int MAX_STATE = 64;

    private final HttpClient http;
    private final Duration requestTimeout;
    private final long responseLimit;

    /**
     * @param requestTimeout the longest a whole exchange may take, from connecting to the last byte of the answer
     * @param responseLimit the largest answer read, in bytes
     */
    public RemoteJobClient(Duration connectTimeout, Duration requestTimeout, long responseLimit) {
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.requestTimeout = requestTimeout;
        this.responseLimit = responseLimit;
    }

    @Override
    public String start(JobServerUrl server, String name, Map<String, String> params, String idempotencyKey)
            throws RemoteJobException {
        String body = JSON.createObjectNode().put("name", name).put("idempotencyKey", idempotencyKey)
                .set("params", JSON.valueToTree(params)).toString();
        JsonNode answer = call(HttpRequest.newBuilder(server.jobs()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), true);
        return id(answer);
    }

    /**
     * A job as the service describes it, its log limited to the last {@code tailBytes} bytes. Services that do not
     * know the {@code tailBytes} parameter send the whole log, which the response limit bounds.
     */
    @Override
    public RemoteJob get(JobServerUrl server, String id, int tailBytes) throws RemoteJobException {
        JsonNode answer = call(HttpRequest.newBuilder(server.job(id, "tailBytes=" + tailBytes)).GET(), false);
        JsonNode state = answer.get("state");
        if (state == null || !state.isTextual() || state.asText().isBlank()) {
            throw badAnswer("an answer without the job's state");
        }
        return new RemoteJob(id(answer), ServerText.line(state.asText(), MAX_STATE),
                ServerText.log(answer.path("log").asText("")), answer.path("logTruncated").asBoolean(false));
    }

    @Override
    public void cancel(JobServerUrl server, String id) throws RemoteJobException {
        try {
            call(HttpRequest.newBuilder(server.job(id, "")).DELETE(), false);
        } catch (RemoteJobException e) {
            if (e.kind() != RemoteJobException.Kind.NOT_FOUND) {
                throw e;
            }
        }
    }

    private JsonNode call(HttpRequest.Builder request, boolean starting) throws RemoteJobException {
        HttpRequest built = request.timeout(requestTimeout).build();
        HttpResponse<byte[]> response = exchange(built);
        int code = response.statusCode();
        if (code >= 500) {
            throw new RemoteJobException(RemoteJobException.Kind.SERVER_ERROR,
                    "the job service answered HTTP " + code + errorText(response.body()), null);
        }
        if (code == 404 && !starting) {
            throw new RemoteJobException(RemoteJobException.Kind.NOT_FOUND,
                    "the job service does not know the job (HTTP 404)" + errorText(response.body()), null);
        }
        if (code >= 400) {
            throw new RemoteJobException(starting ? RemoteJobException.Kind.REJECTED
                    : RemoteJobException.Kind.BAD_ANSWER, "the job service refused the "
                            + (starting ? "job" : "request") + " (HTTP " + code + ")" + errorText(response.body()), null);
        }
        if (code >= 300) {
            throw badAnswer("HTTP " + code + ", a redirect, which is not followed");
        }
        try {
            JsonNode node = JSON.readTree(response.body());
            if (node == null || !node.isObject()) {
                throw badAnswer("an answer that is not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw badAnswer("an answer that is not JSON");
        }
    }

    /** The whole exchange, ended at the request timeout however the server dribbles its answer. */
    private HttpResponse<byte[]> exchange(HttpRequest request) throws RemoteJobException {
        CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request, BoundedBody.handler(responseLimit));
        try {
            return answer.get(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw unreachable(request, e);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw unreachable(request, e);
        } catch (ExecutionException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof BoundedBody.TooLarge) {
                    throw new RemoteJobException(RemoteJobException.Kind.TOO_LARGE, "the job service's answer is"
                            + " larger than " + responseLimit + " bytes (--remote-response-limit)", null);
                }
            }
            throw unreachable(request, e.getCause() == null ? e : e.getCause());
        }
    }

    /** One message whatever the cause: refused, dropped, reset, a wrong certificate or a name that does not resolve. */
    private static RemoteJobException unreachable(HttpRequest request, Throwable cause) {
        LOG.debug("{} {}: {}", request.method(), request.uri(), cause.toString());
        return new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, UNREACHABLE, null);
    }

    private static RemoteJobException badAnswer(String what) {
        return new RemoteJobException(RemoteJobException.Kind.BAD_ANSWER,
                "the job service answered badly: " + what, null);
    }

    private static String id(JsonNode answer) throws RemoteJobException {
        JsonNode id = answer.get("id");
        if (id == null || !id.isTextual() || !ID.matcher(id.asText()).matches()) {
            throw badAnswer("no job id of 1 to 128 letters, digits and . _ : -");
        }
        return id.asText();
    }

    /** The service's own words, when it speaks the job API's error format. */
    private static String errorText(byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.path("error").isTextual()) {
                return ": " + ServerText.line(node.get("error").asText(), ServerText.MAX_MESSAGE);
            }
        } catch (IOException e) {
            // not the job API's error format: the status code says enough
        }
        return "";
    }
}
