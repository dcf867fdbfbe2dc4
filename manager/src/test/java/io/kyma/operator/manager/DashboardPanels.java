package io.kyma.operator.manager;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.testing.Crds;

/** The panels of config/prometheus/grafana-dashboard.json and their queries, as Grafana would send them. */
record DashboardPanels(List<DashboardPanels.Panel> panels) {
    /** The job the ServiceMonitor's targets get, which the dashboard's $job variable selects. */
    static final String JOB = "kyma-operator-controller-manager-metrics";
    /** Grafana's $__rate_interval for a 15 s scrape interval: four scrapes. */
    static final String RATE_INTERVAL = "1m";

    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");

    record Query(String expr, String legend, boolean instant) {
        /** The expression with the dashboard's variables filled in. */
        String promql() {
            return expr.replace("$job", JOB).replace("$__rate_interval", RATE_INTERVAL);
        }

        /** The labels the legend shows. */
        Set<String> legendLabels() {
            Set<String> labels = new TreeSet<>();
            Matcher m = LEGEND_LABEL.matcher(legend);
            while (m.find()) {
                labels.add(m.group(1));
            }
            return labels;
        }

        /** The legend of one series, as Grafana writes it. */
        String legendOf(Map<String, String> labels) {
            Matcher m = LEGEND_LABEL.matcher(legend);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(labels.getOrDefault(m.group(1), "")));
            }
            m.appendTail(out);
            return out.toString();
        }
    }

    record Panel(int id, String title, String type, String unit, List<Query> queries) {
        /** A file name for the panel's renders: its id and title. */
        String slug() {
            return String.format(
                    "%02d-%s",
                    id,
                    title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", ""));
        }
    }

    static DashboardPanels load() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(Files.readString(Crds.repositoryRoot().resolve("config/prometheus/grafana-dashboard.json")));
        List<Panel> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            List<Query> queries = new ArrayList<>();
            for (JsonNode target : panel.get("targets")) {
                queries.add(new Query(
                        target.get("expr").asText(),
                        target.path("legendFormat").asText(""),
                        target.path("instant").asBoolean(false)));
            }
            panels.add(new Panel(
                    panel.get("id").asInt(),
                    panel.get("title").asText(),
                    panel.get("type").asText(),
                    panel.path("fieldConfig").path("defaults").path("unit").asText("short"),
                    queries));
        }
        return new DashboardPanels(panels);
    }
}
