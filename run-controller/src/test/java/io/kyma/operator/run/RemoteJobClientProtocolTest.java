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
    private static final int[] CODES = {200, 201, 202, 204, 301, 303, 400, 404, 409, 410, 422, 429, 500, 503};

    /** States as services send them, and how each ends the job: running, or the end state in the job API's words. */
    private static final Map<String, String> STATES = Map.ofEntries(
            Map.entry("running", "running"),
            Map.entry("queued", "running"),
            Map.entry("succeeded-ish", "running"),
            Map.entry("succeeded", "succeeded"),
            Map.entry("SUCCEEDED", "succeeded"),
            Map.entry(" Succeeded ", "succeeded"),
            Map.entry("failed", "failed"),
            Map.entry(" failed", "failed"),
            Map.entry("FAILED  ", "failed"),
            Map.entry("cancelled", "cancelled"),
            Map.entry("canceled", "cancelled"),
            Map.entry("Canceled", "cancelled"),
            Map.entry("", "running"),
            Map.entry("  ", "running"));

    /**
     * Locations as services send them, and the job each names when resolved against {@code /jobs}, the start's URL on
     * a server without a base path ("" for none).
     */
    private static final Map<String, String> LOCATIONS = Map.ofEntries(
            Map.entry("/jobs/job-1", JOB),
            Map.entry("jobs/j-7", "j-7"),
            Map.entry("./jobs/j-7", "j-7"),
            Map.entry("/jobs/../jobs/j-7", "j-7"),
            Map.entry("http://elsewhere:81/jobs/j-7", "j-7"),
            Map.entry(" /jobs/j-7 ", "j-7"),
            Map.entry("j-7", ""),
            Map.entry("/api/jobs/j-7", ""),
            Map.entry("/jobs/j-7/", ""),
            Map.entry("/jobs/..", ""),
            Map.entry("/jobs/", ""),
            Map.entry("/jobs/a b", ""),
            Map.entry("/jobs/a%2Fb", ""),
            Map.entry("x", ""),
            Map.entry("::", ""));

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

    /**
     * An answer, and what it reports: the job's id and state at the top level, once each, as text; else null. {@code
     * jobApi}: whether the body is a JSON object naming a field of the job API at its top level.
     */
    private record Case(
            int code,
            byte[] body,
            String location,
            String reportedId,
            String reportedState,
            boolean clean,
            boolean jobApi) {
        @Override
        public String toString() {
            String text = new String(body, StandardCharsets.UTF_8);
            return code + " "
                    + (text.length() < 300
                            ? text
                            : text.substring(0, 150) + " ... " + text.substring(text.length() - 150))
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
        for (int i = 0; i < 300; i++) {
            current = generate(random);
            if (random.nextBoolean()) { // half of them as a job service answers a poll of a job it knows
                current = new Case(
                        200,
                        current.body(),
                        null,
                        current.reportedId(),
                        current.reportedState(),
                        current.clean(),
                        current.jobApi());
            }
            Case c = current;
            Object outcome = outcome(client.get(url, JOB, LogTail.MAX_BYTES));
            if (outcome instanceof RemoteJob job) {
                assertThat(c.code() / 100).as("%s", c).isEqualTo(2);
                assertThat(c.reportedId())
                        .as("the job polled reported itself: %s", c)
                        .isEqualTo(JOB);
                assertThat(job.id()).isEqualTo(JOB);
                assertThat(job.state())
                        .as("the state reported at the top level, as sent: %s", c)
                        .isEqualTo(ServerText.line(c.reportedState(), 64));
                String ends = STATES.get(c.reportedState());
                assertThat(job.running()).as("%s", c).isEqualTo(ends.equals("running"));
                assertThat(job.ended()).as("%s", c).isEqualTo(ends.equals("running") ? "" : ends);
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

    /**
     * Taken is any 2xx but a 200 with neither a job-API body nor a Location (a stand-in's page), a 303 whose Location
     * names a job, and a 409 naming one: such a start is followed by the usable id its body names, else its
     * Location's, or fails for good. Any other 2xx or 3xx is no job service's answer, and the start is sent again.
     */
    @Test
    void aStartTheServiceTookIsNeverOneToSendAgain() {
        Random random = new Random(56);
        for (int i = 0; i < 200; i++) {
            current = generate(random);
            Case c = current;
            Object outcome = outcome(client.start(url, "build", Map.of(), "uid"));
            String located = c.location() == null ? "" : LOCATIONS.get(c.location());
            boolean taken = c.code() / 100 == 2 && (c.code() != 200 || c.jobApi() || c.location() != null)
                    || c.code() == 303 && !located.isEmpty()
                    || c.code() == 409 && c.reportedId() != null; // the job an earlier try made
            String bodyId = c.code() == 204 ? null : c.reportedId(); // 204: no body is sent
            String expected = JobAnswer.validId(bodyId) ? bodyId : located; // an unusable body id hides no Location
            if (c.body().length > LIMIT && c.code() != 204) {
                assertThat(((RemoteJobException) outcome).kind()).isEqualTo(RemoteJobException.Kind.TOO_LARGE);
            } else if (taken && JobAnswer.validId(expected)) {
                assertThat(outcome)
                        .as("%s", c)
                        .isInstanceOfSatisfying(
                                JobService.Start.class, s -> assertThat(s.id()).isEqualTo(expected));
            } else if (taken) {
                assertThat(outcome)
                        .as("a start the job API took is not sent again: %s", c)
                        .isInstanceOfSatisfying(
                                RemoteJobException.class,
                                e -> assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.BAD_START));
            } else if (c.code() / 100 == 2 || c.code() / 100 == 3) {
                assertThat(outcome)
                        .as("no job service took it; sent again, with the same key: %s", c)
                        .isInstanceOfSatisfying(
                                RemoteJobException.class,
                                e -> assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.UNREACHABLE));
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
    void aLocationIsResolvedAgainstTheStartsUrlAndNamesAJobOnlyUnderItsJobsPath() {
        url = JobServerUrl.parse(url + "/api");
        Map<String, String> located = Map.of(
                "jobs/j-7", "j-7",
                "/api/jobs/j-7", "j-7",
                "http://elsewhere/api/jobs/j-7", "j-7",
                "../api/jobs/j-7", "j-7",
                "/jobs/j-7", "",
                "j-7", "",
                "/api/jobs/j-7/x", "",
                "/api/jobs/..", "");
        for (int code : new int[] {201, 202, 204, 303}) {
            for (Map.Entry<String, String> location : located.entrySet()) {
                current = new Case(code, new byte[0], location.getKey(), null, null, true, false);
                Object outcome = outcome(client.start(url, "build", Map.of(), "uid"));
                if (!location.getValue().isEmpty()) {
                    assertThat(outcome)
                            .as("%s", current)
                            .isInstanceOfSatisfying(
                                    JobService.Start.class,
                                    s -> assertThat(s.id()).isEqualTo("j-7"));
                } else {
                    assertThat(((RemoteJobException) outcome).kind())
                            .as("%s", current)
                            .isEqualTo(
                                    code == 303
                                            ? RemoteJobException.Kind.UNREACHABLE
                                            : RemoteJobException.Kind.BAD_START);
                }
            }
        }
    }

    @Test
    void anAnswerNestedAsDeepAsTheResponseLimitAllowsIsABadAnswer() {
        String head = "\uFEFF {\"id\":\"" + JOB + "\",\"trace\":";
        String tail = ",\"state\":\"SUCCEEDED\"}";
        int depth = (LIMIT - head.length() - tail.length() - 10) / 2;
        byte[] body = (head + "[".repeat(depth) + "]".repeat(depth) + tail).getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isLessThanOrEqualTo(LIMIT);
        current = new Case(200, body, null, JOB, "SUCCEEDED", true, true);
        assertThat(outcome(client.get(url, JOB, LogTail.MAX_BYTES)))
                .isInstanceOfSatisfying(
                        RemoteJobException.class,
                        e -> assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.BAD_ANSWER));
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
        String location = random.nextInt(4) == 0 ? pick(random, sorted(LOCATIONS.keySet())) : null;
        int shape = random.nextInt(10);
        if (shape == 0) {
            byte[] raw = pick(random, List.of("", "<html>busy</html>", "null", "[]", "\"job\"", "{\"id\":", "{}", "42"))
                    .getBytes(StandardCharsets.UTF_8);
            return new Case(code, raw, location, null, null, false, false);
        }
        List<Field> fields = new ArrayList<>();
        String[] ids = {JOB, JOB, JOB, "job-2", "..", "a/b", "", "x".repeat(200)};
        List<String> states = sorted(STATES.keySet());
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            fields.add(
                    switch (random.nextInt(12)) {
                        case 0, 1 -> new Field("id", quote(pick(random, List.of(ids))));
                        case 2, 3 -> new Field("state", quote(pick(random, states)));
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
                        case 8 -> new Field("meta", ignored(random));
                        case 9 -> new Field("deep", deep(random));
                        default -> new Field("extra" + random.nextInt(3), ignored(random));
                    });
        }
        if (random.nextBoolean()) {
            fields.add(new Field("id", quote(JOB)));
            fields.add(new Field("state", quote(pick(random, states))));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(pick(random, List.of("", "", "\uFEFF", "\uFEFF \r\n", " \t\uFEFF", "\n"))
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(ascii("{"));
        for (int i = 0; i < fields.size(); i++) {
            body.writeBytes(ascii((i == 0 ? "" : ",") + "\"" + fields.get(i).name() + "\":"));
            body.writeBytes(fields.get(i).json());
        }
        body.writeBytes(ascii("}"));
        List<String> api = fields.stream()
                .map(Field::name)
                .filter(Set.of("id", "state", "log", "logTruncated", "error")::contains)
                .toList();
        // only the job API's own fields count, repeated or mistyped; anything else is passed over unchecked
        boolean repeated = api.stream().distinct().count() < api.size();
        String id = repeated ? null : only(fields, "id"); // an answer that repeats a field reports nothing
        String state = repeated ? null : only(fields, "state");
        boolean clean =
                !repeated && fields.stream().allMatch(RemoteJobClientProtocolTest::typed) && body.size() <= LIMIT;
        boolean jobApi = api.contains("id") || api.contains("state") || api.contains("error");
        return new Case(
                code,
                body.toByteArray(),
                location,
                id,
                state != null && !state.isBlank() ? state : null,
                clean,
                jobApi);
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

    /** A value of a field the job API does not define: nested, repeating keys, echoing the job API's fields. */
    private static byte[] ignored(Random random) {
        return ascii(pick(
                random,
                List.of(
                        "\"v\"",
                        "{\"id\":\"job-2\",\"state\":\"failed\",\"log\":5,\"error\":{\"message\":1}}",
                        "{\"team\":\"a\",\"team\":\"b\",\"x\":{\"k\":1,\"k\":[1,{\"k\":2,\"k\":3}]}}",
                        "9".repeat(1 + random.nextInt(20_000)),
                        "-1." + "5".repeat(1 + random.nextInt(5_000)) + "e-99999",
                        "[" + "\"" + "s".repeat(random.nextInt(60_000)) + "\",null,true]",
                        "{\"" + "n".repeat(random.nextInt(60_000)) + "\":{}}")));
    }

    /** Objects and arrays nested up to the bound, the innermost saying another job failed. */
    private static byte[] deep(Random random) {
        int depth = random.nextBoolean() ? 1 + random.nextInt(60) : 1 + random.nextInt(JobAnswer.MAX_DEPTH - 10);
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            boolean array = random.nextBoolean();
            open.append(array ? "[" : "{\"a\":");
            close.append(array ? "]" : "}");
        }
        return ascii(open + "{\"id\":\"job-2\",\"state\":\"failed\"}" + close.reverse());
    }

    private static List<String> sorted(Set<String> keys) {
        return keys.stream().sorted().toList();
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
