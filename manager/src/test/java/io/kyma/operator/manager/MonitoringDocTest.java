package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.DocRegion;

/**
 * docs/monitoring.md shows every panel of the dashboard as drawn from a real Prometheus run (make monitoring-docs
 * writes docs/monitoring/); its list of panels is generated here ({@code -Dmonitoring.write=true} rewrites it).
 */
class MonitoringDocTest {
    private static final Path DOCS = Crds.repositoryRoot().resolve("docs");
    private static final String BEGIN = "<!-- panels: generated from config/prometheus/grafana-dashboard.json -->\n";
    private static final String END = "<!-- end of panels -->\n";

    @Test
    void everyPanelIsDrawnFromCommittedDataAndShown() throws IOException {
        StringBuilder panels = new StringBuilder();
        for (DashboardPanels.Panel panel : DashboardPanels.load().panels()) {
            Path png = DOCS.resolve("monitoring").resolve(panel.slug() + ".png");
            Path csv = DOCS.resolve("monitoring").resolve(panel.slug() + ".csv");
            assertThat(png).as(panel.title() + ": run make monitoring-docs").exists();
            assertThat(csv).as(panel.title()).exists();
            assertThat(Files.readAllLines(csv))
                    .as(panel.title() + ": Prometheus's answers")
                    .hasSizeGreaterThan(1);
            panels.append("\n### ").append(panel.title()).append("\n\n");
            for (DashboardPanels.Query query : panel.queries()) {
                panels.append("- `").append(query.expr()).append("`\n");
            }
            panels.append("\n![")
                    .append(panel.title())
                    .append("](monitoring/")
                    .append(panel.slug())
                    .append(".png)\n\nWhat Prometheus answered: [")
                    .append(panel.slug())
                    .append(".csv](monitoring/")
                    .append(panel.slug())
                    .append(".csv)\n");
        }
        panels.append("\n");
        DocRegion.check(DOCS.resolve("monitoring.md"), BEGIN, END, panels.toString(), "monitoring.write");
    }

    @Test
    void thePageNamesTheLoadThePicturesWereDrawnFrom() throws IOException {
        String run = Files.readString(DOCS.resolve("monitoring/run.txt"));
        Matcher load = Pattern.compile(
                        "load: (\\d+) Kymas of the 18 modules, one every (\\d+) s, --transition-unit (\\S+);")
                .matcher(run);
        assertThat(load.find()).as("run.txt names its load").isTrue();
        String page = Files.readString(DOCS.resolve("monitoring.md")).replaceAll("\\s+", " ");
        assertThat(page)
                .contains(load.group(1) + " Kymas of the 18 modules, one every " + load.group(2)
                        + " s, `--transition-unit " + load.group(3) + "`");
    }
}
