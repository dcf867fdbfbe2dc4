package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.kyma.operator.common.status.FailureClass;

/** How the client reads a job service's HTTP status codes, against a real HTTP server on loopback. */
class RemoteJobClientAnswerTest {
    /** One timer for every client the tests make: the request timeouts. */
    private static final JobCalls.Timer ALARMS = JobCalls.timerThread();

    private HttpServer server;
    private int code;
    private String answer = "{\"error\":\"not now\"}";

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A header of this many bytes goes with each answer. */
    private int headerBytes;

    private JobServerUrl serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/", exchange -> {
            if (headerBytes > 0) {
                exchange.getResponseHeaders().add("X-Padding", "x".repeat(headerBytes));
            }
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(code, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return JobServerUrl.parse("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static RemoteJobClient client() {
        ServerAddresses addresses = new ServerAddresses(
                ServerAllowList.parse("127.0.0.1"), Optional.empty(), Set.of(), InetAddress::getAllByName);
        // timeouts that only a hang reaches: no answer here is meant to be late
        return new RemoteJobClient(Duration.ofMinutes(1), Duration.ofMinutes(2), 256 * 1024, addresses, 2, ALARMS);
    }

    private RemoteJobException start(JobServerUrl url) {
        try (RemoteJobClient client = client()) {
            Throwable thrown = catchThrowable(
                    () -> client.start(url, "build", Map.of(), "uid").join());
            assertThat(thrown).isInstanceOf(CompletionException.class);
            return (RemoteJobException) thrown.getCause();
        }
    }

    @Test
    void aServiceSayingNotNowIsTriedAgainAndOneSayingNoFailsTheRun() throws IOException {
        JobServerUrl url = serve();
        for (int notNow : new int[] {408, 409, 425, 429, 503}) {
            code = notNow;
            RemoteJobException e = start(url);
            assertThat(e.failureClass()).as("HTTP %d", notNow).isEqualTo(FailureClass.RETRY);
            assertThat(e.getMessage()).isEqualTo("the job service answered HTTP " + notNow + ": not now");
        }
        for (int no : new int[] {400, 403, 422}) {
            code = no;
            assertThat(start(url).failureClass()).as("HTTP %d", no).isNotEqualTo(FailureClass.RETRY);
        }
    }

    @Test
    void aConflictNamingTheJobOfAnEarlierTryIsTheStartsAnswer() throws IOException {
        JobServerUrl url = serve();
        code = 409;
        answer = "{\"id\":\"job-1\",\"error\":\"already started\"}";
        try (RemoteJobClient client = client()) {
            JobService.Start start = client.start(url, "build", Map.of(), "uid").join();
            assertThat(start.id()).isEqualTo("job-1");
            assertThat(start.server().pinned())
                    .as("an address is not looked up, so not pinned")
                    .isEmpty();
        }
    }

    @Test
    void aConflictAnsweringAPollIsNoRetryOfAStart() {
        assertThat(RemoteJobClient.busy(409, false)).isFalse();
        assertThat(RemoteJobClient.busy(409, true)).isTrue();
    }

    @Test
    void anAnswerWaitingForItsReconcileHoldsNoMoreThanTheTailTheStatusShows() throws IOException {
        JobServerUrl url = serve();
        code = 200;
        // 65,536 characters of two bytes each in UTF-8, and two in a Java string
        answer = "{\"id\":\"j\",\"state\":\"running\",\"log\":\"" + "line\\n".repeat(10) + "\u0100".repeat(65_536)
                + "\"}";
        try (RemoteJobClient client = client()) {
            RemoteJob job = client.get(url, "j", LogTail.MAX_BYTES).join();
            assertThat(job.log().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(LogTail.MAX_BYTES);
            assertThat(job.log().length())
                    .as("half the characters of the tail's bytes")
                    .isEqualTo(LogTail.MAX_BYTES / 2);
            assertThat(job.logTruncated()).isTrue();
        }
    }

    @Test
    void anAnswersHeadersAreBoundedAsTheAnswerBudgetCountsThem() throws IOException {
        assertThat(Integer.getInteger("jdk.http.maxHeaderSize"))
                .as("set as Main sets it")
                .isEqualTo(RemoteJobClient.MAX_HEADER_BYTES);
        JobServerUrl url = serve();
        code = 200;
        answer = "{\"id\":\"j\",\"state\":\"running\"}";
        headerBytes = RemoteJobClient.MAX_HEADER_BYTES / 2;
        try (RemoteJobClient client = client()) {
            assertThat(client.get(url, "j", 0).join().state()).isEqualTo("running");
            headerBytes = RemoteJobClient.MAX_HEADER_BYTES * 2;
            Throwable thrown = catchThrowable(() -> client.get(url, "j", 0).join());
            assertThat(thrown).hasCauseInstanceOf(RemoteJobException.class);
        }
    }
}
