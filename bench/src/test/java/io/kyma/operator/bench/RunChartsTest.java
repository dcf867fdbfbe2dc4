package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

        var older = Sampler.parse("seconds,kymas_ready,operator_rss_mib\n5.0,3,99.5\n");
        assertThat(older.get(0).kymas())
                .as("a column an older run did not write reads as 0")
                .containsExactly(0, 3, 0, 0);
        assertThat(older.get(0).conflicts()).isZero();
    }

    @Test
    void drawsWhatAKeptRunLacksFromItsDataFilesAndLinksItAgain() throws IOException {
        gzip("timeseries.csv", TIMESERIES);
        Files.writeString(
                run.resolve("ready-times.csv"),
                "order,name,created,ready,seconds\n"
                        + "0,kyma-00000,2026-11-26T20:17:50Z,2026-11-26T20:19:01Z,71\n"
                        + "1,kyma-00001,2026-11-26T20:17:50Z,2026-11-26T20:19:02Z,72\n");
        Files.writeString(run.resolve("lateness.csv"), "bucket_s,transitions\n0..0.001,5\n0.001..0.0025,2\n>10,0\n");
        Files.writeString(
                run.resolve("heap-by-objects.csv"), "watched_objects,operator_rss_mib,live_heap_mib\n75,141.5,18.2\n");
        byte[] memory = {1, 2, 3};
        Files.write(run.resolve("memory.png"), memory);
        Files.writeString(
                run.resolve("report.md"),
                "## Time to Ready\n\n(chart `ready.png` not kept)\n\n## Writes\n\n"
                        + "(chart `progress.png` not kept)\n\n![memory](memory.png)\n");

        assertThat(RunCharts.drawMissing(run))
                .containsExactly(RunCharts.Chart.READY, RunCharts.Chart.PROGRESS, RunCharts.Chart.LATENESS);
        for (String chart : new String[] {"ready.png", "progress.png", "lateness.png"}) {
            byte[] png = Files.readAllBytes(run.resolve(chart));
            assertThat(Arrays.copyOf(png, 4)).as(chart).containsExactly(0x89, 'P', 'N', 'G');
        }
        assertThat(Files.readAllBytes(run.resolve("memory.png")))
                .as("a chart the run kept is left as it was")
                .containsExactly(memory);
        assertThat(Files.readString(run.resolve("report.md")))
                .contains("![ready](ready.png)", "![progress](progress.png)", "![memory](memory.png)")
                .doesNotContain("not kept");

        assertThat(RunCharts.drawMissing(run))
                .as("once drawn, nothing is left to draw")
                .isEmpty();
    }

    @Test
    void namesTheDataFileAChartLacks() throws IOException {
        Files.writeString(run.resolve("lateness.csv"), "bucket_s,transitions\n>0,0\n");
        assertThatThrownBy(() -> RunCharts.drawMissing(run))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ready-times.csv");
    }

    private void gzip(String name, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(run.resolve(name + ".gz")))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
