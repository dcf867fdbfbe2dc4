package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's charts, drawn with XChart. */
final class Charts {
    private Charts() {}

    /** Components by state over time, with Kymas Ready on a second axis. */
    static void progress(List<Sampler.Row> rows, Path file) throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(560)
                .title("Components by state, Kymas Ready")
                .xAxisTitle("seconds since the first create")
                .yAxisTitle("HelmComponents")
                .build();
        double[] x = rows.stream().mapToDouble(Sampler.Row::seconds).toArray();
        for (int s = 0; s < Sampler.STATES.size(); s++) {
            final int state = s;
            XYSeries series = chart.addSeries(
                    Sampler.STATES.get(s),
                    x,
                    rows.stream().mapToDouble(r -> r.components()[state]).toArray());
            series.setMarker(SeriesMarkers.NONE);
        }
        XYSeries ready = chart.addSeries(
                "Kymas Ready", x, rows.stream().mapToDouble(r -> r.kymas()[1]).toArray());
        ready.setMarker(SeriesMarkers.NONE);
        ready.setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, "Kymas Ready");
        BitmapEncoder.saveBitmap(chart, strip(file), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Operator RSS (each second) and live heap (after full collections) against the objects it watches. */
    static void memory(List<Sampler.Row> rows, List<HeapCurve.Point> heap, Path file) throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(560)
                .title("Operator memory")
                .xAxisTitle("watched objects (Kymas + HelmComponents)")
                .yAxisTitle("MiB")
                .build();
        XYSeries series = chart.addSeries(
                "RSS",
                rows.stream().mapToDouble(Sampler.Row::watchedObjects).toArray(),
                rows.stream().mapToDouble(Sampler.Row::rssMiB).toArray());
        series.setMarker(SeriesMarkers.CIRCLE);
        XYSeries live = chart.addSeries(
                "live heap after a full GC",
                heap.stream().mapToDouble(HeapCurve.Point::watchedObjects).toArray(),
                heap.stream().mapToDouble(HeapCurve.Point::liveHeapMiB).toArray());
        live.setMarker(SeriesMarkers.DIAMOND);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        BitmapEncoder.saveBitmap(chart, strip(file), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Each Kyma's time to Ready against its place in the order of admission. */
    static void readyTimes(ReadyTimes ready, Path file) throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(1000)
                .height(560)
                .title("Time to Ready per Kyma")
                .xAxisTitle("Kymas in order of creation")
                .yAxisTitle("seconds from creation to Ready")
                .build();
        double[] order = new double[ready.kymas().size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        XYSeries series = chart.addSeries(
                "time to Ready",
                order.length == 0 ? new double[] {0} : order,
                order.length == 0
                        ? new double[] {0}
                        : ready.kymas().stream()
                                .mapToDouble(ReadyTimes.Entry::seconds)
                                .toArray());
        series.setMarker(SeriesMarkers.CIRCLE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendVisible(false);
        BitmapEncoder.saveBitmap(chart, strip(file), BitmapEncoder.BitmapFormat.PNG);
    }

    /** How late transitions were written after their due time: transitions in each histogram bucket. */
    static void lateness(Map<String, Double> buckets, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder()
                .width(1000)
                .height(560)
                .title("Lateness of component transitions")
                .xAxisTitle("seconds after the due time (histogram bucket)")
                .yAxisTitle("transitions")
                .build();
        chart.addSeries(
                "transitions",
                List.copyOf(buckets.keySet()),
                buckets.values().stream().map(Number.class::cast).toList());
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(45);
        BitmapEncoder.saveBitmap(chart, strip(file), BitmapEncoder.BitmapFormat.PNG);
    }

    /** The buckets of a {@link #bucketsCsv} written before, in its order. */
    static LinkedHashMap<String, Double> parseBuckets(String text) {
        Csv csv = Csv.parse(text);
        if (csv.header().size() != 2) {
            throw new IllegalArgumentException("not the bucket_s column and one count: " + csv.header());
        }
        int range = csv.column("bucket_s");
        int count = 1 - range;
        LinkedHashMap<String, Double> buckets = new LinkedHashMap<>();
        csv.rows().forEach(cells -> buckets.put(cells[range], Double.parseDouble(cells[count])));
        return buckets;
    }

    /** A histogram's buckets as CSV rows: the bucket's range in seconds and its count. */
    static String bucketsCsv(Map<String, Double> buckets, String what) {
        StringBuilder out = new StringBuilder("bucket_s," + what + "\n");
        buckets.forEach((range, count) ->
                out.append(range).append(',').append(Math.round(count)).append('\n'));
        return out.toString();
    }

    /** XChart adds the extension itself. */
    private static String strip(Path file) {
        String name = file.toString();
        return name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
    }
}
