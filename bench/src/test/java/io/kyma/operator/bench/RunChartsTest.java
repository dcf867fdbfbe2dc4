package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunChartsTest {
    private static final String TIMESERIES = "seconds,components_pending,components_started,components_failing,"
            + "components_retrying,components_success,kymas_processing,kymas_ready,kymas_error,kymas_deleting,"
            + "queue_depth,operator_rss_mib,api_writes_per_s,temporary_cache,conflicts,informer_lists\n"
            + "0.2,0,0,0,0,18,0,1,0,0,0,121.4,0,0,0,3\n"
            + "1.0,36,0,0,0,18,2,1,0,0,88,130.0,88,5,0,3\n"
            + "2.0,0,18,18,0,36,1,2,0,0,4,141.5,120,7,1,3\n";
    private static final String READY = "order,name,created,ready,seconds\n"
            + "0,kyma-00000,2026-11-26T20:17:50Z,2026-11-26T20:19:01Z,71\n"
            + "1,kyma-00001,2026-11-26T20:17:50Z,2026-11-26T20:19:02Z,72\n";

    @TempDir
    Path run;

    @Test
    void aTimeseriesReadsBackByColumnName() {
        var rows = Sampler.parse(TIMESERIES);
        assertThat(rows).hasSize(3);
        var last = rows.get(2);
        assertThat(last.seconds()).isEqualTo(2.0);
        assertThat(last.components()).containsExactly(0, 18, 18, 0, 36);
        assertThat(last.kymas()).containsExactly(1, 2, 0, 0);
        assertThat(last.watchedObjects()).isEqualTo(75);
        assertThat(last.rssMiB()).isEqualTo(141.5);
        assertThat(last.informerLists()).isEqualTo(3);

        var older = Sampler.parse(
                "components_pending,components_started,components_failing,components_retrying,components_success,"
                        + "kymas_ready,operator_rss_mib,seconds\n0,0,0,0,18,3,99.5,5.0\n");
        assertThat(older.get(0).seconds()).as("found by name, not place").isEqualTo(5.0);
        assertThat(older.get(0).kymas())
                .as("a column the charts do not draw, which an older run did not write, reads as 0")
                .containsExactly(0, 3, 0, 0);
        assertThat(older.get(0).conflicts()).isZero();
    }

    @Test
    void aColumnTheChartsDrawMustBeThereAndEveryRowWhole() {
        assertThatThrownBy(() -> Sampler.parse("seconds,kymas_ready\n1.0,3\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no column operator_rss_mib");
        assertThatThrownBy(() -> ReadyTimes.parse(READY + "2,kyma-00002,2026-11-26T20:17:51Z\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("row 3 has 3 cells, the header 5");
        assertThatThrownBy(() -> Sampler.parse(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no header row");
    }

    @Test
    void drawsWhatAKeptRunLacksFromItsDataFilesAndLinksItAgain() throws IOException {
        gzip("timeseries.csv", TIMESERIES);
        Files.writeString(run.resolve("ready-times.csv"), READY);
        Files.writeString(run.resolve("lateness.csv"), "bucket_s,transitions\n0..0.001,5\n0.001..0.0025,2\n>10,0\n");
        byte[] memory = {1, 2, 3};
        Files.write(run.resolve("memory.png"), memory);
        Files.writeString(
                run.resolve("report.md"),
                "## Time to Ready\n\n(chart `ready.png` not kept)\n\n## Writes\n\n"
                        + "(chart `progress.png` not kept in the archive: no page shows it)\n\n![memory](memory.png)\n");

        RunCharts.Outcome outcome = RunCharts.drawMissing(run);
        assertThat(outcome.drawn())
                .containsExactly(RunCharts.Chart.READY, RunCharts.Chart.PROGRESS, RunCharts.Chart.LATENESS);
        assertThat(outcome.notDrawn()).isEmpty();
        for (String chart : new String[] {"ready.png", "progress.png", "lateness.png"}) {
            byte[] png = Files.readAllBytes(run.resolve(chart));
            assertThat(Arrays.copyOf(png, 4)).as(chart).containsExactly(0x89, 'P', 'N', 'G');
        }
        assertThat(Files.readAllBytes(run.resolve("memory.png")))
                .as("a chart the run kept is left as it was")
                .containsExactly(memory);
        assertThat(Files.readString(run.resolve("report.md")))
                .isEqualTo("## Time to Ready\n\n![ready](ready.png)\n\n## Writes\n\n"
                        + "![progress](progress.png)\n\n![memory](memory.png)\n");

        assertThat(RunCharts.drawMissing(run))
                .as("once drawn, nothing is left to draw")
                .isEqualTo(new RunCharts.Outcome(List.of(), List.of()));
    }

    @Test
    void aChartWithoutItsDataIsNamedAndTheOthersAreStillDrawnAndLinked() throws IOException {
        Files.writeString(run.resolve("ready-times.csv"), READY);
        Files.writeString(run.resolve("lateness.csv"), "bucket_s,transitions\n0..0.001,x\n");
        Files.writeString(
                run.resolve("report.md"),
                "(chart `ready.png` not kept)\n(chart `progress.png` not kept)\n(chart `memory.png` not kept)\n");

        RunCharts.Outcome outcome = RunCharts.drawMissing(run);
        assertThat(outcome.drawn()).containsExactly(RunCharts.Chart.READY);
        assertThat(outcome.notDrawn())
                .containsExactly(
                        "progress.png: no timeseries.csv",
                        "memory.png: no timeseries.csv or heap-by-objects.csv",
                        "lateness.png: For input string: \"x\"");
        assertThat(Files.readString(run.resolve("report.md")))
                .as("the note stays for each chart still missing")
                .isEqualTo("![ready](ready.png)\n(chart `progress.png` not kept)\n(chart `memory.png` not kept)\n");
    }

    @Test
    void refusesAFolderThatIsNotThere() {
        assertThatThrownBy(() -> RunCharts.drawMissing(run.resolve("gone")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such run folder");
    }

    private void gzip(String name, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(run.resolve(name + ".gz")))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
