package io.kyma.operator.remotejob;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.testing.MutableClock;

class JobApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final JobStore store = new JobStore(clock);
    private final JobApi api = new JobApi(store);

    @Test
    void aJobRunsLogsAndSucceedsOnTime() throws Exception {
        var created = api.handle(
                "POST",
                "/jobs",
                "{\"name\":\"build\",\"params\":{\"durationSeconds\":\"10\",\"linesPerSecond\":\"2\"},\"idempotencyKey\":\"uid-1\"}");
        assertThat(created.status()).isEqualTo(201);
        String id = JSON.readTree(created.body()).get("id").asText();
        assertThat(store.get(id).orElseThrow().endsAt()).isEqualTo(Instant.parse("2026-01-01T00:00:10Z"));

        clock.advance(Duration.ofSeconds(3));
        JsonNode running = JSON.readTree(api.handle("GET", "/jobs/" + id, "").body());
        assertThat(running.get("state").asText()).isEqualTo("running");
        assertThat(running.get("log").asText())
                .contains("job build started", "build: step 6")
                .doesNotContain("step 7");
        assertThat(running.get("finishedAt").isNull()).isTrue();

        clock.advance(Duration.ofSeconds(7));
        JsonNode done = JSON.readTree(api.handle("GET", "/jobs/" + id, "").body());
        assertThat(done.get("state").asText()).isEqualTo("succeeded");
        assertThat(done.get("log").asText()).contains("step 20", "job build succeeded");
        assertThat(done.get("finishedAt").asText()).isEqualTo("2026-01-01T00:00:10Z");
    }

    @Test
    void aTailOfTheLogIsSentOnlyWhenAskedForAndSaysItWasCut() throws Exception {
        var created = api.handle(
                "POST",
                "/jobs",
                "{\"name\":\"build\",\"params\":{\"durationSeconds\":\"100\",\"linesPerSecond\":\"10\"},\"idempotencyKey\":\"uid-t\"}");
        String id = JSON.readTree(created.body()).get("id").asText();
        clock.advance(Duration.ofSeconds(50));
        JsonNode whole =
                JSON.readTree(api.handle("GET", "/jobs/" + id, null, "").body());
        JsonNode tail = JSON.readTree(
                api.handle("GET", "/jobs/" + id, "tailBytes=100", "").body());
        assertThat(whole.has("logTruncated")).isFalse();
        assertThat(tail.get("logTruncated").asBoolean()).isTrue();
        assertThat(tail.get("log").asText())
                .hasSize(100)
                .isEqualTo(whole.get("log")
                        .asText()
                        .substring(whole.get("log").asText().length() - 100));
        JsonNode enough = JSON.readTree(
                api.handle("GET", "/jobs/" + id, "tailBytes=100000000", "").body());
        assertThat(enough.has("logTruncated")).isFalse();
        assertThat(api.handle("GET", "/jobs/" + id, "tailBytes=-1", "").status())
                .isEqualTo(400);
        assertThat(api.handle("GET", "/jobs/" + id, "tailBytes=lots", "").status())
                .isEqualTo(400);
    }

    @Test
    void theSameIdempotencyKeyStartsNothingNew() throws Exception {
        String body = "{\"name\":\"build\",\"params\":{},\"idempotencyKey\":\"uid-2\"}";
        var first = api.handle("POST", "/jobs", body);
        var second = api.handle("POST", "/jobs", body);
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(200);
        assertThat(JSON.readTree(second.body()).get("id"))
                .isEqualTo(JSON.readTree(first.body()).get("id"));
        assertThat(store.started()).isEqualTo(1);
    }

    @Test
    void failingAndCancelledJobsEndFailed() throws Exception {
        String failing = id(api.handle(
                "POST",
                "/jobs",
                "{\"name\":\"x\",\"params\":{\"duration\":\"2s\",\"fail\":\"true\"},\"idempotencyKey\":\"a\"}"));
        String cancelled = id(api.handle("POST", "/jobs", "{\"name\":\"y\",\"idempotencyKey\":\"b\"}"));
        clock.advance(Duration.ofSeconds(1));
        assertThat(api.handle("DELETE", "/jobs/" + cancelled, "").status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));

        JsonNode failed =
                JSON.readTree(api.handle("GET", "/jobs/" + failing, "").body());
        assertThat(failed.get("state").asText()).isEqualTo("failed");
        assertThat(failed.get("log").asText()).contains("job x failed");
        JsonNode stopped =
                JSON.readTree(api.handle("GET", "/jobs/" + cancelled, "").body());
        assertThat(stopped.get("state").asText()).isEqualTo("failed");
        assertThat(stopped.get("log").asText()).contains("job y cancelled");
        assertThat(stopped.get("finishedAt").asText()).isEqualTo("2026-01-01T00:00:01Z");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "POST|/jobs|{not json|400|malformed JSON",
                "POST|/jobs|[1,2]|400|JSON object",
                "POST|/jobs|{\"params\":{},\"idempotencyKey\":\"k\"}|400|missing field: name",
                "POST|/jobs|{\"name\":\"n\"}|400|missing field: idempotencyKey",
                "POST|/jobs|{\"name\":\"n\",\"idempotencyKey\":\"k\",\"params\":[]}|400|params must be an object",
                "POST|/jobs|{\"name\":\"n\",\"idempotencyKey\":\"k\",\"params\":{\"durationSeconds\":\"soon\"}}|400|durationSeconds must be a number",
                "POST|/jobs|{\"name\":\"n\",\"idempotencyKey\":\"k\",\"params\":{\"duration\":\"5 minutes\"}}|400|params.duration",
                "POST|/jobs|{\"name\":\"n\",\"idempotencyKey\":\"k\",\"params\":{\"linesPerSecond\":\"0\"}}|400|linesPerSecond",
                "POST|/jobs|{\"name\":\"n\",\"idempotencyKey\":\"k\",\"params\":{\"reject\":\"quota exceeded\"}}|422|job refused: quota exceeded",
                "GET|/jobs/unknown-id||404|no job unknown-id",
                "DELETE|/jobs/unknown-id||404|no job",
                "PUT|/jobs||405|use POST",
                "GET|/jobs/a/b||404|no such path",
                "GET|/jobs/../../etc||404|no such path"
            })
    void badRequestsGetAClearJsonError(String method, String path, String body, int status, String message)
            throws Exception {
        var response = api.handle(method, path, body);
        assertThat(response.status()).isEqualTo(status);
        assertThat(JSON.readTree(response.body()).get("error").asText()).contains(message);
    }

    @Test
    void nothingItIsSentMakesItThrow() {
        Random random = new Random(42);
        String[] methods = {"GET", "POST", "DELETE", "PATCH", ""};
        for (int i = 0; i < 2000; i++) {
            byte[] noise = new byte[random.nextInt(64)];
            random.nextBytes(noise);
            String text = new String(noise, StandardCharsets.ISO_8859_1);
            var response = api.handle(
                    methods[random.nextInt(methods.length)], random.nextBoolean() ? "/jobs" : "/jobs/" + text, text);
            assertThat(response.status()).isBetween(200, 499);
        }
        assertThat(api.handle("POST", "/jobs", null).status()).isEqualTo(400);
    }

    private static String id(JobApi.Response response) throws Exception {
        return JSON.readTree(response.body()).get("id").asText();
    }
}
