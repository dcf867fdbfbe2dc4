package io.kyma.operator.manager;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.kyma.operator.testing.PrometheusServer.Series;

/**
 * Draws a dashboard panel from what Prometheus answered to its queries, and keeps those answers as CSV beside the
 * picture: time series as lines over the seconds of the run, bar gauges as bars of each series' last value.
 */
final class PanelRenders {
    private PanelRenders() {}

    /** One query's answer with the legend of each series. */
    record Answer(DashboardPanels.Query query, List<Series> series) {}

    static void render(DashboardPanels.Panel panel, List<Answer> answers, double startEpoch, Path dir)
            throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder("seconds,series,value\n");
        String title = panel.title() + (panel.unit().equals("s") ? " (seconds)" : "");
        if (panel.type().equals("bargauge")) {
            // the moment with the most series (the latest of equals): mid-load for the slowest Kymas
            TreeMap<Double, Integer> seriesAt = new TreeMap<>();
            answers.forEach(a -> a.series()
                    .forEach(s -> s.samples().stream()
                            .filter(v -> !Double.isNaN(v[1]))
                            .forEach(v -> seriesAt.merge(v[0], 1, Integer::sum))));
            double moment = seriesAt.entrySet().stream()
                    .reduce((a, b) -> b.getValue() >= a.getValue() ? b : a)
                    .map(Map.Entry::getKey)
                    .orElse(0.0);
            List<String> names = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (Answer answer : answers) {
                for (Series s : answer.series()) {
                    for (double[] v : s.samples()) {
                        if (v[0] == moment && !Double.isNaN(v[1])) {
                            String name = answer.query().legendOf(s.labels());
                            names.add(name);
                            values.add(v[1]);
                            csv.append(row(v[0] - startEpoch, name, v[1]));
                        }
                    }
                }
            }
            title += String.format(Locale.ROOT, " at %.0f s", moment - startEpoch);
            CategoryChart chart = new CategoryChartBuilder()
                    .width(900)
                    .height(480)
                    .title(title)
                    .build();
            chart.getStyler().setLegendVisible(false);
            chart.getStyler().setXAxisLabelRotation(45);
            if (!names.isEmpty()) {
                chart.addSeries(panel.title(), names, values);
            }
            BitmapEncoder.saveBitmap(chart, dir.resolve(panel.slug()).toString(), BitmapEncoder.BitmapFormat.PNG);
        } else {
            XYChart chart = new XYChartBuilder()
                    .width(900)
                    .height(480)
                    .title(title)
                    .xAxisTitle("seconds since Prometheus started")
                    .build();
            for (Answer answer : answers) {
                for (Series s : answer.series()) {
                    String name = answer.query().legendOf(s.labels());
                    List<double[]> numbers = s.samples().stream()
                            .filter(v -> !Double.isNaN(v[1]))
                            .toList();
                    numbers.forEach(v -> csv.append(row(v[0] - startEpoch, name, v[1])));
                    if (numbers.isEmpty() || chart.getSeriesMap().containsKey(name)) {
                        continue;
                    }
                    XYSeries line = chart.addSeries(
                            name,
                            numbers.stream().mapToDouble(v -> v[0] - startEpoch).toArray(),
                            numbers.stream().mapToDouble(v -> v[1]).toArray());
                    line.setMarker(SeriesMarkers.NONE);
                }
            }
            BitmapEncoder.saveBitmap(chart, dir.resolve(panel.slug()).toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        Files.writeString(dir.resolve(panel.slug() + ".csv"), csv.toString());
    }

    private static String row(double seconds, String name, double value) {
        return String.format(
                Locale.ROOT,
                "%.0f,\"%s\",%s%n",
                seconds,
                name.replace("\"", "'"),
                Double.isNaN(value) ? "NaN" : Double.toString(value));
    }
}
