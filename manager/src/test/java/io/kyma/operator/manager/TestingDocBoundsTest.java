package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;

/**
 * The table of docs/testing.md, what the integration tests assert, names bounds, not timings; this keeps each row equal to
 * the bound its test fails on, so that changing one without the other goes red.
 */
class TestingDocBoundsTest {
    private static final Path ROOT = Crds.repositoryRoot();
    private static final Path TESTS = ROOT.resolve("manager/src/test/java/io/kyma/operator/manager");

    /** For each test: what the row of docs/testing.md says, and the code in the test that asserts it. */
    private static final Map<String, List<List<String>>> ROWS = Map.of(
            "WriteCountIT",
                    List.of(
                            List.of("no sooner than 67 s", "isGreaterThanOrEqualTo(Duration.ofSeconds(67))"),
                            List.of("18 component creates", "assertThat(componentCreates).isEqualTo(18)"),
                            List.of("90 component status writes", "assertThat(componentStatus).isEqualTo(90)"),
                            List.of("at most 20 Kyma status writes", "assertThat(kymaStatus).isLessThanOrEqualTo(20)"),
                            List.of("2 events", "assertThat(events).isEqualTo(2)"),
                            List.of("130 writes in all", "assertThat(total).isLessThanOrEqualTo(130)")),
            "KymaFlowIT",
                    List.of(
                            List.of("50 Kymas (900 components)", "IntStream.range(0, 50)"),
                            List.of("every component `success`", "isEqualTo(ComponentState.SUCCESS)")),
            "RunFlowIT",
                    List.of(
                            List.of("1000 Runs of 10 s", "int runs = 1000;"),
                            List.of("1000 Runs of 10 s", "int durationSeconds = 10;"),
                            List.of("QPS 150", "\"--k8s-client-qps\", \"150\""),
                            List.of(
                                    "at most 2 + 10 status writes per Run",
                                    "isLessThanOrEqualTo(2 + durationSeconds)")),
            "LimiterIT",
                    List.of(
                            List.of("no sooner than (300 − 30) / 20 s less 1.5 s", "(300 - 30) * 1000 / 20 - 1500"),
                            List.of("under a third of those at QPS 20", "waitedFast.multipliedBy(3))"),
                            List.of("under a third of those at QPS 20", ".isLessThan(waitedSlow)")));

    @Test
    void eachRowStatesTheBoundItsTestAsserts() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/testing.md"));
        // the bounds' table, up to the next section (the test times, whose rows name test classes too)
        int next = page.indexOf("\n## ");
        String section = next < 0 ? page : page.substring(0, next);
        for (Map.Entry<String, List<List<String>>> test : ROWS.entrySet()) {
            // as one line, however the formatter wraps it
            String source = Files.readString(TESTS.resolve(test.getKey() + ".java"))
                    .replaceAll("\\s+", " ")
                    .replace("( ", "(")
                    .replace(" )", ")");
            String row = section.lines()
                    .filter(l -> l.contains("`" + test.getKey() + "`"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("docs/testing.md has no row for " + test.getKey()));
            for (List<String> claim : test.getValue()) {
                assertThat(row)
                        .as("the row of %s in docs/testing.md", test.getKey())
                        .contains(claim.get(0));
                assertThat(source)
                        .as("%s asserts what docs/testing.md says: %s", test.getKey(), claim.get(0))
                        .contains(claim.get(1));
            }
        }
        assertThat(section.lines().filter(l -> l.startsWith("| ") && l.contains("IT`")))
                .as("rows with a test")
                .hasSize(ROWS.size());
    }
}
