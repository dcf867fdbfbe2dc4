package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The answer model against generated bodies: the job API's top-level fields, shuffled among fields it does not define
 * (nested any depth, repeating keys, echoing the job API's names, numbers and names of any length), behind a byte
 * order mark or white space. What is read is exactly the top-level fields; the rest never makes an answer unusable.
 */
class JobAnswerTest {
    private static final String[] PREFIXES = {"", "\uFEFF", " \r\n\t", "\uFEFF\n  ", "  \uFEFF"};

    @Test
    void fieldNamesAreNotKeptFromOneAnswerToTheNext() throws Exception {
        // Jackson's canonical names would keep every made-up name of every answer: a service could fill the heap
        var canonical = java.lang.invoke.MethodHandles.privateLookupIn(
                        com.fasterxml.jackson.core.JsonFactory.class, java.lang.invoke.MethodHandles.lookup())
                .findVarHandle(
                        com.fasterxml.jackson.core.JsonFactory.class,
                        "_rootCharSymbols",
                        com.fasterxml.jackson.core.sym.CharsToNameCanonicalizer.class);
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            String name = "n" + i + "x".repeat(random.nextInt(2_000));
            JobAnswer.read(
                    ("{\"" + name + "\":1,\"id\":\"j\",\"state\":\"running\"}").getBytes(StandardCharsets.UTF_8));
        }
        var factory = java.lang.invoke.MethodHandles.privateLookupIn(
                        JobAnswer.class, java.lang.invoke.MethodHandles.lookup())
                .findStaticVarHandle(JobAnswer.class, "JSON", com.fasterxml.jackson.core.JsonFactory.class)
                .get();
        var symbols = (com.fasterxml.jackson.core.sym.CharsToNameCanonicalizer) canonical.get(factory);
        assertThat(symbols.size()).as("names kept by the parser factory").isZero();
    }

    @Test
    void theTopLevelFieldsAreReadWhateverTheIgnoredPartsHold() {
        Random random = new Random(55);
        for (int i = 0; i < 500; i++) {
            String id = "job-" + random.nextInt(100);
            String state = pick(random, List.of("running", "SUCCEEDED", " failed", "canceled", "queued"));
            String log = pick(random, List.of("", "one\\ntwo", "\\u00e9"));
            boolean truncated = random.nextBoolean();
            String error =
                    pick(random, List.of("", "\"broken\"", "{\"state\":\"failed\",\"message\":\"m\",\"x\":[[]]}"));
            List<String> fields = new ArrayList<>(List.of(
                    "\"id\":\"" + id + "\"",
                    "\"state\":\"" + state + "\"",
                    "\"log\":\"" + log + "\"",
                    "\"logTruncated\":" + truncated));
            if (!error.isEmpty()) {
                fields.add("\"error\":" + error);
            }
            int ignored = random.nextInt(6);
            for (int j = 0; j < ignored; j++) {
                fields.add("\"" + pick(random, List.of("meta", "meta", "labels", "x".repeat(70_000))) + "\":"
                        + ignoredValue(random));
            }
            Collections.shuffle(fields, random);
            String body = pick(random, List.of(PREFIXES)) + "{" + String.join(",", fields) + "}";

            JobAnswer answer = JobAnswer.read(body.getBytes(StandardCharsets.UTF_8));

            assertThat(answer).as(head(body)).isNotNull();
            assertThat(answer.malformed()).as(head(body)).isNull();
            assertThat(answer.id()).isEqualTo(id);
            assertThat(answer.state()).isEqualTo(state);
            assertThat(answer.log()).isEqualTo(log.replace("\\n", "\n").replace("\\u00e9", "\u00e9"));
            assertThat(answer.logTruncated()).isEqualTo(truncated);
            assertThat(answer.error()).isEqualTo(error.isEmpty() ? null : error.startsWith("\"") ? "broken" : "m");
        }
    }

    @Test
    void aFieldOfTheJobApiGivenTwiceIsABadAnswerAndAnUnknownOneGivenTwiceIsNot() {
        Random random = new Random(56);
        for (String field : List.of("id", "state", "log", "logTruncated", "error")) {
            for (int i = 0; i < 20; i++) {
                String value = field.equals("logTruncated") ? "false" : "\"job-1\"";
                String other = "\"" + (i % 2 == 0 ? field + "x" : "meta") + "\":" + ignoredValue(random);
                String body = "{\"id\":\"job-1\",\"state\":\"running\"," + other + "," + other + ",\"" + field + "\":"
                        + value + (field.equals("id") || field.equals("state") ? "" : ",\"" + field + "\":" + value)
                        + "}";
                assertThat(JobAnswer.read(body.getBytes(StandardCharsets.UTF_8)).malformed())
                        .as(head(body))
                        .isEqualTo("an answer with a field given twice");
            }
        }
    }

    @Test
    void aBodyThatIsNoJobApiObjectIsNoAnswerAndOneThatBreaksOffIsABadOne() {
        for (String page : List.of(
                "",
                " ",
                "\uFEFF",
                "<html>busy</html>",
                "null",
                "[]",
                "\"job\"",
                "42",
                "{}",
                "{\"id\":",
                "{\"meta\":{\"id\":\"job-1\",\"state\":\"failed\"}}",
                "{\"log\":\"x\"}")) {
            assertThat(JobAnswer.read(page.getBytes(StandardCharsets.UTF_8)))
                    .as(page)
                    .isNull();
        }
        for (String broken : List.of("{\"id\":\"job-1\",", "{\"state\":\"running\"", "{\"error\":\"x\",\"a\":[[")) {
            assertThat(JobAnswer.read(broken.getBytes(StandardCharsets.UTF_8)).malformed())
                    .as(broken)
                    .isEqualTo("an answer whose JSON breaks off or is not JSON");
        }
    }

    @Test
    void nestingWithinTheBoundIsPassedOverAndBeyondItIsABadAnswerWhereverItIs() {
        for (int depth : new int[] {1, 100, JobAnswer.MAX_DEPTH - 10, JobAnswer.MAX_DEPTH + 1, 500_000}) {
            String deep = "[".repeat(depth) + "1" + "]".repeat(depth);
            for (String body : new String[] {
                "{\"id\":\"job-1\",\"trace\":" + deep + ",\"state\":\"succeeded\"}",
                "{\"trace\":" + deep + ",\"id\":\"job-1\",\"state\":\"succeeded\"}"
            }) {
                JobAnswer answer = JobAnswer.read(body.getBytes(StandardCharsets.UTF_8));
                if (depth < JobAnswer.MAX_DEPTH) {
                    assertThat(answer.malformed()).as("depth %d", depth).isNull();
                    assertThat(answer.state()).isEqualTo("succeeded");
                } else {
                    assertThat(answer.malformed())
                            .as("depth %d: a bounded bad answer, never 'no job service'", depth)
                            .isEqualTo("an answer nested deeper than " + JobAnswer.MAX_DEPTH + " levels");
                }
            }
        }
    }

    /** A value of a field the job API does not define. */
    private static String ignoredValue(Random random) {
        int depth = 1 + random.nextInt(random.nextBoolean() ? 40 : JobAnswer.MAX_DEPTH - 10);
        return switch (random.nextInt(6)) {
            case 0 -> "[".repeat(depth) + "{\"state\":\"failed\"}" + "]".repeat(depth);
            case 1 -> "{\"id\":\"other\",\"state\":\"succeeded\",\"error\":{\"message\":5},\"log\":7}";
            case 2 -> "{\"team\":\"a\",\"team\":\"b\",\"x\":{\"k\":1,\"k\":[{\"k\":2,\"k\":3}]}}";
            case 3 -> "9".repeat(1 + random.nextInt(50_000));
            case 4 -> "-0." + "1".repeat(1 + random.nextInt(5_000)) + "e-99999";
            default ->
                "{\"" + "n".repeat(1 + random.nextInt(70_000)) + "\":\"" + "s".repeat(random.nextInt(70_000)) + "\"}";
        };
    }

    private static String head(String body) {
        return body.substring(0, Math.min(body.length(), 200));
    }

    private static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}
