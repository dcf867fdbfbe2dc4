package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.kyma.operator.common.status.FailureClass;

/**
 * Generated answers of every shape a job service can give, through the real client on loopback, against the protocol's
 * oracle: a poll's outcome is the state the answer reports at its top level for the job polled, or a stated failure;
 * a start the service took (2xx) is never a failure that would be retried; a cancel the service took, or answered as
 * unknown or finished, is done.
 */
class RemoteJobClientProtocolTest {
    /** One timer for every client the tests make: the request timeouts. */
    private static final JobCalls.Timer ALARMS = JobCalls.timerThread();

    private static final String JOB = "job-1";
    private static final int LIMIT = 256 * 1024;
    private static final int[] CODES = {200, 201, 202, 204, 301, 400, 404, 409, 410, 422, 429, 500, 503};

    static {
        // answers in one segment, not held back by Nagle's algorithm for the client's delayed ACK (40 ms per call)
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private HttpServer server;
    private JobServerUrl url;
    private RemoteJobClient client;
    private volatile Case current;

    /** One top-level field as sent: its name and its JSON text (any type, or bytes that are no UTF-8). */
    private record Field(String name, byte[] json) {}

    /** An answer, and what it reports: the job's id and state at the top level, once each, as text; else null. */
    private record Case(
            int code, byte[] body, String location, String reportedId, String reportedState, boolean clean) {
        @Override
        public String toString() {
            return code + " " + new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8)
                    + (location == null ? "" : " Location: " + location);
        }
    }

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/", exchange -> {
            Case c = current;
            if (c.location() != null) {
                exchange.getResponseHeaders().add("Location", c.location());
            }
            boolean none = c.code() == 204 || c.body().length == 0;
            exchange.sendResponseHeaders(c.code(), none ? -1 : c.body().length);
            if (!none) {
                exchange.getResponseBody().write(c.body());
            }
            exchange.close();
        });
        server.start();
        url = JobServerUrl.parse("http://127.0.0.1:" + server.getAddress().getPort());
        client = new RemoteJobClient(
                Duration.ofMinutes(1),
                Duration.ofMinutes(2),
                LIMIT,
                new ServerAddresses(
                        ServerAllowList.parse("127.0.0.1"), Optional.empty(), Set.of(), InetAddress::getAllByName),
                2,
                ALARMS);
    }

    @AfterEach
    void stop() {
        client.close();
        server.stop(0);
    }

    @Test
    void aPollEndsInTheStateTheAnswerReportsForItsJobOrInAStatedFailure() {
        Random random = new Random(55);
        for (int i = 0; i < 150; i++) {
            current = generate(random);
            Case c = current;
            Object outcome = outcome(client.get(url, JOB, LogTail.MAX_BYTES));
            if (outcome instanceof RemoteJob job) {
                assertThat(c.code() / 100).as("%s", c).isEqualTo(2);
                assertThat(c.reportedId())
                        .as("the job polled reported itself: %s", c)
                        .isEqualTo(JOB);
                assertThat(job.id()).isEqualTo(JOB);
                assertThat(job.state())
                        .as("the state reported at the top level: %s", c)
                        .isEqualTo(ServerText.line(c.reportedState(), 64));
            } else {
                RemoteJobException e = (RemoteJobException) outcome;
                assertThat(e.getMessage()).as("%s", c).isNotBlank().hasSizeLessThan(600);
                if (e.kind() == RemoteJobException.Kind.TOO_LARGE) {
                    assertThat(c.body().length).as("%s", c).isGreaterThan(LIMIT);
                } else if (c.code() == 404 || c.code() == 410) {
                    assertThat(e.failureClass()).as("%s", c).isIn(FailureClass.GONE, FailureClass.RETRY);
                } else {
                    assertThat(e.failureClass()).as("%s", c).isEqualTo(FailureClass.RETRY);
                }
                boolean usable =
                        c.code() == 200 && c.clean() && JOB.equals(c.reportedId()) && c.reportedState() != null;
                assertThat(usable)
                        .as("a well-formed answer for the job is used: %s (%s)", c, e.getMessage())
                        .isFalse();
            }
        }
    }

    @Test
    void aStartTheServiceTookIsNeverOneToSendAgain() {
        Random random = new Random(56);
        for (int i = 0; i < 100; i++) {
            current = generate(random);
            Case c = current;
            Object outcome = outcome(client.start(url, "build", Map.of(), "uid"));
            if (outcome instanceof JobService.Start start) {
                assertThat(JobAnswer.validId(start.id())).as("%s", c).isTrue();
                assertThat(c.code() / 100 == 2 || c.code() == 409).as("%s", c).isTrue();
                assertThat(start.id())
                        .as("the id the answer or its Location names: %s", c)
                        .isIn(c.reportedId(), RemoteJobClient.idIn(url.jobs(), String.valueOf(c.location())));
            } else if (c.code() / 100 == 2
                    && (c.code() != 204 && JobAnswer.read(c.body()) != null || c.location() != null)) {
                // (a 204 carries no body, whatever the service wrote)
                RemoteJobException e = (RemoteJobException) outcome;
                assertThat(e.failureClass())
                        .as("a start the job API took is not retried: %s", c)
                        .isIn(FailureClass.SPEC);
            } else if (c.code() / 100 == 2) {
                // not the job API's answer (a proxy's page): no job service took it; sent again, with the same key
                assertThat(((RemoteJobException) outcome).kind())
                        .as("%s", c)
                        .isEqualTo(RemoteJobException.Kind.UNREACHABLE);
            }
        }
    }

    @Test
    void aCancelTheServiceTookOrAnsweredAsUnknownOrFinishedIsDone() {
        Random random = new Random(57);
        for (int i = 0; i < 80; i++) {
            current = generate(random);
            Object outcome = outcome(client.cancel(url, JOB));
            // an answer over the response limit is refused before its code is read, whatever the call
            boolean done = Set.of(200, 201, 202, 204, 404, 409, 410).contains(current.code())
                    && (current.code() == 204 || current.body().length <= LIMIT);
            assertThat(outcome == null).as("%s <- %s", outcome, current.code()).isEqualTo(done);
        }
    }

    @Test
    void aStartTakenWithItsIdOnlyInTheLocationIsFollowedThere() {
        for (String location : List.of("/jobs/j-7", "http://127.0.0.1/api/jobs/j-7", " /x/jobs/j-7 ")) {
            current = new Case(201, new byte[0], location, null, null, true);
            assertThat(outcome(client.start(url, "build", Map.of(), "uid")))
                    .isInstanceOfSatisfying(
                            JobService.Start.class, s -> assertThat(s.id()).isEqualTo("j-7"));
        }
        for (String location : List.of("/jobs/..", "/jobs/", "/other/j-7", "/jobs/a%2Fb", "::", "/jobs/.")) {
            current = new Case(201, new byte[0], location, null, null, true);
            assertThat(outcome(client.start(url, "build", Map.of(), "uid")))
                    .as(location)
                    .isInstanceOfSatisfying(
                            RemoteJobException.class,
                            e -> assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.BAD_START));
        }
    }

    /** The value, null for a done cancel, or the failure. */
    private static Object outcome(CompletableFuture<?> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(RemoteJobException.class);
            return e.getCause();
        }
    }

    private static Case generate(Random random) {
        int code = CODES[random.nextInt(CODES.length)];
        String location =
                random.nextInt(4) == 0 ? pick(random, List.of("/jobs/job-1", "/jobs/..", "/jobs/a b", "x")) : null;
        int shape = random.nextInt(10);
        if (shape == 0) {
            byte[] raw = pick(random, List.of("", "<html>busy</html>", "null", "[]", "\"job\"", "{\"id\":", "{}", "42"))
                    .getBytes(StandardCharsets.UTF_8);
            return new Case(code, raw, location, null, null, false);
        }
        List<Field> fields = new ArrayList<>();
        String[] ids = {JOB, JOB, JOB, "job-2", "..", "a/b", "", "x".repeat(200)};
        String[] states = {"running", "succeeded", "failed", "cancelled", "queued", "", "  "};
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            fields.add(
                    switch (random.nextInt(12)) {
                        case 0, 1 -> new Field("id", quote(pick(random, List.of(ids))));
                        case 2, 3 -> new Field("state", quote(pick(random, List.of(states))));
                        case 4 ->
                            new Field(pick(random, List.of("id", "state", "log", "logTruncated")), wrongType(random));
                        case 5 -> new Field("log", log(random));
                        case 6 -> new Field("logTruncated", ascii(random.nextBoolean() ? "true" : "false"));
                        case 7 ->
                            new Field(
                                    "error",
                                    random.nextBoolean()
                                            ? ascii("{\"state\":\"failed\",\"id\":\"job-2\",\"message\":\"nested\"}")
                                            : quote("broken"));
                        case 8 -> new Field("meta", ascii("{\"id\":\"job-1\",\"state\":\"succeeded\",\"log\":\"x\"}"));
                        case 9 -> {
                            int depth = 1 + random.nextInt(60);
                            yield new Field("deep", ascii("[".repeat(depth) + "]".repeat(depth)));
                        }
                        default -> new Field("extra" + random.nextInt(3), quote("v"));
                    });
        }
        if (random.nextBoolean()) {
            fields.add(new Field("id", quote(JOB)));
            fields.add(new Field("state", quote(pick(random, List.of(states)))));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(ascii("{"));
        for (int i = 0; i < fields.size(); i++) {
            body.writeBytes(ascii((i == 0 ? "" : ",") + "\"" + fields.get(i).name() + "\":"));
            body.writeBytes(fields.get(i).json());
        }
        body.writeBytes(ascii("}"));
        String id = only(fields, "id");
        String state = only(fields, "state");
        boolean clean = fields.stream().map(Field::name).distinct().count() == fields.size()
                && fields.stream().allMatch(RemoteJobClientProtocolTest::typed)
                && fields.stream()
                        .noneMatch(f -> f.json().length > LIMIT / 2
                                || f.json().length > 2 * 25 + 1 && f.name().equals("deep"));
        return new Case(
                code, body.toByteArray(), location, id, state != null && !state.isBlank() ? state : null, clean);
    }

    /** The text value of the one field of this name, when there is exactly one and it is text. */
    private static String only(List<Field> fields, String name) {
        List<Field> named = fields.stream().filter(f -> f.name().equals(name)).toList();
        if (named.size() != 1) {
            return null;
        }
        String json = new String(named.get(0).json(), StandardCharsets.UTF_8);
        return json.startsWith("\"") ? json.substring(1, json.length() - 1) : null;
    }

    /** Whether a field of the job API has its type: text (or null), and true, false or null for logTruncated. */
    private static boolean typed(Field field) {
        String json = new String(field.json(), StandardCharsets.UTF_8);
        return switch (field.name()) {
            case "id", "state", "log" -> json.startsWith("\"") || json.equals("null");
            case "logTruncated" -> Set.of("true", "false", "null").contains(json);
            default -> true;
        };
    }

    private static byte[] wrongType(Random random) {
        return ascii(pick(random, List.of("5", "null", "{}", "[\"running\"]", "true", "{\"state\":\"failed\"}")));
    }

    private static byte[] log(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ascii("\"line one\\n"));
        switch (random.nextInt(8)) {
            case 0, 3, 4 -> out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, 'x', (byte) 0xc3});
            case 1 -> out.writeBytes(ascii("y".repeat(40_000)));
            case 2 -> out.writeBytes(ascii("z".repeat(LIMIT)));
            default -> out.writeBytes("\u00e9\u202e\\u0000".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(ascii("\""));
        return out.toByteArray();
    }

    private static byte[] quote(String text) {
        return ("\"" + text + "\"").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}
