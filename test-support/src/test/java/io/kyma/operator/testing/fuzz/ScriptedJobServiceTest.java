package io.kyma.operator.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScriptedJobServiceTest {
    private final ScriptedJobService service = ScriptedJobService.start(Duration.ZERO);
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void aStartIsKeptByItsKeyAndACancelEndsTheJob() throws Exception {
        HttpResponse<String> started = send("POST", "/jobs", start("key-1", "60000"));
        assertThat(started.statusCode()).isEqualTo(201);
        assertThat(send("POST", "/jobs", start("key-1", "60000")).body()).isEqualTo(started.body());
        assertThat(service.jobs()).singleElement().satisfies(job -> {
            assertThat(job.key()).isEqualTo("key-1");
            assertThat(job.running()).isTrue();
        });
        String id = service.jobs().get(0).id();

        assertThat(send("DELETE", "/jobs/" + id, "").body()).contains("\"state\":\"cancelled\"");
        assertThat(service.jobs())
                .singleElement()
                .satisfies(job -> assertThat(job.state()).isEqualTo("cancelled"));
    }

    @Test
    void eachShapeAnswersOneRequestInTheOrderAsked() throws Exception {
        send("POST", "/jobs", start("key-2", "0"));
        String path = "/jobs/" + service.jobs().get(0).id();
        service.answerNext(ScriptedJobService.Shape.UNAVAILABLE, 1);
        service.answerNext(ScriptedJobService.Shape.OTHER_JOB, 1);
        service.answerNext(ScriptedJobService.Shape.NESTED_STATE, 1);
        service.answerNext(ScriptedJobService.Shape.CONFLICT, 1);
        service.answerNext(ScriptedJobService.Shape.NOT_UTF8, 1);

        assertThat(send("GET", path, "").statusCode()).isEqualTo(503);
        assertThat(send("GET", path, "").body())
                .doesNotContain(service.jobs().get(0).id())
                .contains("succeeded");
        assertThat(send("GET", path, "").body()).contains("\"error\":{\"state\":\"failed\"");
        assertThat(send("GET", path, "").statusCode()).isEqualTo(409);
        HttpResponse<byte[]> raw = http.send(
                HttpRequest.newBuilder(URI.create(service.url() + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(raw.body()).contains((byte) 0xFF);
        assertThat(send("GET", path, "").body()).contains("\"state\":\"succeeded\"");
    }

    @Test
    void aStartAnsweredWithALocationOnlyStillStartsTheJob() throws Exception {
        service.answerNext(ScriptedJobService.Shape.LOCATION_ONLY, 1);
        HttpResponse<String> started = send("POST", "/jobs", start("key-3", "0"));
        assertThat(started.statusCode()).isEqualTo(201);
        assertThat(started.body()).isEmpty();
        assertThat(started.headers().firstValue("Location"))
                .hasValue("/jobs/" + service.jobs().get(0).id());
    }

    private static String start(String key, String durationMs) {
        return "{\"name\":\"build\",\"params\":{\"durationMs\":\"" + durationMs + "\"},\"idempotencyKey\":\"" + key
                + "\"}";
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(service.url() + path))
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
