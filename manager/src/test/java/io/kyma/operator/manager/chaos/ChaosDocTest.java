package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;

/**
 * The fault tables of docs/reliability.md are the CSV files that {@code make chaos} wrote in docs/chaos, rendered, and
 * every recorded row passed: nothing skipped, repeated or early, no Run started twice, no two replicas writing at
 * once. {@code -Dchaos.write=true} rewrites the tables from the files ({@code make chaos} does it after the runs).
 */
class ChaosDocTest {
    private static final Pattern TABLE = Pattern.compile(
            "<!-- table: generated from docs/chaos/([a-z-]+)\\.csv -->\n(.*?)<!-- end of table -->\n", Pattern.DOTALL);

    @Test
    void everyFaultTableIsItsRecordedRunAndEveryRecordedRunPassed() throws IOException {
        Path root = Crds.repositoryRoot();
        Path doc = root.resolve("docs/reliability.md");
        String text = Files.readString(doc);
        List<String> recorded;
        try (Stream<Path> files = Files.list(root.resolve("docs/chaos"))) {
            recorded = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".csv"))
                    .map(n -> n.substring(0, n.length() - 4))
                    .sorted()
                    .toList();
        }
        Matcher tables = TABLE.matcher(text);
        StringBuilder rewritten = new StringBuilder();
        List<String> shown = new ArrayList<>();
        while (tables.find()) {
            String scenario = tables.group(1);
            shown.add(scenario);
            Path csv = root.resolve("docs/chaos/" + scenario + ".csv");
            assertThat(csv).as("the data of the table for " + scenario).exists();
            ChaosReport.Recorded data = ChaosReport.read(csv);
            boolean writers = scenario.endsWith("-writers");
            String expected =
                    writers ? WriterRow.markdown(data.environment(), data.writerRows()) : ChaosReport.markdown(data);
            if (!Boolean.getBoolean("chaos.write")) {
                assertThat(tables.group(2))
                        .as(
                                "docs/reliability.md's table for %s differs from %s; rerun make chaos"
                                        + " or this test with -Dchaos.write=true",
                                scenario, csv)
                        .isEqualTo(expected);
            }
            tables.appendReplacement(
                    rewritten,
                    Matcher.quoteReplacement("<!-- table: generated from docs/chaos/" + scenario + ".csv -->\n"
                            + expected + "<!-- end of table -->\n"));
            if (writers) {
                for (WriterRow row : data.writerRows()) {
                    assertThat(row.overlapping() + row.interleaved())
                            .as(scenario + ": " + row.faults())
                            .isZero();
                    assertThat(row.scale())
                            .as("the document shows the full runs of make chaos")
                            .isEqualTo("full");
                }
                continue;
            }
            for (ChaosRow row : data.rows()) {
                assertThat(row.skipped() + row.repeated() + row.early())
                        .as(scenario + ": " + row.faults())
                        .isZero();
                assertThat(row.runsStartedTwice())
                        .as(scenario + ": " + row.faults())
                        .isZero();
                assertThat(row.scale())
                        .as("the document shows the full runs of make chaos")
                        .isEqualTo("full");
            }
        }
        tables.appendTail(rewritten);
        assertThat(shown)
                .as("every recorded scenario has a table in docs/reliability.md")
                .containsExactlyInAnyOrderElementsOf(recorded);
        if (Boolean.getBoolean("chaos.write")) {
            Files.writeString(doc, rewritten.toString());
        }
    }
}
