package io.kyma.operator.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Draws the charts a kept run lacks from the data files the run wrote, and links them from its report again. A run
 * folder under {@code docs/bench/} keeps its data files (gzipped when large) but not always its charts; each chart is a
 * function of one data file, so it can be drawn again at any time, the same as the bench drew it.
 */
final class RunCharts {
    /** A chart, the data file it is drawn from, and the link the bench's report gives it ("" where it gives none). */
    enum Chart {
        READY("ready.png", "ready-times.csv", "![ready](ready.png)"),
        PROGRESS("progress.png", "timeseries.csv", "![progress](progress.png)"),
        MEMORY("memory.png", "timeseries.csv", "![memory](memory.png)"),
        LATENESS("lateness.png", "lateness.csv", "");

        final String file;
        final String data;
        final String link;

        Chart(String file, String data, String link) {
            this.file = file;
            this.data = data;
            this.link = link;
        }

        /** What the report says in place of the link when the chart was not kept. */
        String notKept() {
            return "(chart `" + file + "` not kept)";
        }
    }

    private RunCharts() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("Usage: java -cp bench/target/kyma-bench.jar " + RunCharts.class.getName()
                    + " RUN_FOLDER...\nDraws the charts each run folder lacks from its data files.");
            System.exit(2);
        }
        int failed = 0;
        for (String arg : args) {
            try {
                List<Chart> drawn = drawMissing(Path.of(arg));
                System.out.println(arg + ": " + (drawn.isEmpty() ? "every chart is there" : "drew " + drawn));
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                System.err.println(arg + ": " + e.getMessage());
                failed++;
            }
        }
        if (failed > 0) {
            System.exit(1);
        }
    }

    /** Draws each chart the folder lacks and puts its link back into the report; the charts drawn. */
    static List<Chart> drawMissing(Path run) throws IOException {
        if (!Files.isDirectory(run)) {
            throw new IllegalArgumentException("no such run folder");
        }
        List<Chart> drawn = new ArrayList<>();
        for (Chart chart : Chart.values()) {
            if (!Files.exists(run.resolve(chart.file))) {
                draw(run, chart);
                drawn.add(chart);
            }
        }
        Path report = run.resolve("report.md");
        if (Files.exists(report)) {
            String text = Files.readString(report);
            String linked = text;
            for (Chart chart : Chart.values()) {
                if (!chart.link.isEmpty()) {
                    linked = linked.replace(chart.notKept(), chart.link);
                }
            }
            if (!linked.equals(text)) {
                Files.writeString(report, linked);
            }
        }
        return drawn;
    }

    private static void draw(Path run, Chart chart) throws IOException {
        Path out = run.resolve(chart.file);
        switch (chart) {
            case READY -> Charts.readyTimes(ReadyTimes.parse(data(run, chart.data)), out);
            case PROGRESS -> Charts.progress(Sampler.parse(data(run, chart.data)), out);
            case MEMORY ->
                Charts.memory(
                        Sampler.parse(data(run, chart.data)), HeapCurve.parse(data(run, "heap-by-objects.csv")), out);
            case LATENESS -> Charts.lateness(Charts.parseBuckets(data(run, chart.data)), out);
        }
    }

    /** A data file of the run, read through gzip where the folder keeps it compressed. */
    static String data(Path run, String name) throws IOException {
        Path plain = run.resolve(name);
        if (Files.exists(plain)) {
            return Files.readString(plain);
        }
        Path gzipped = run.resolve(name + ".gz");
        if (!Files.exists(gzipped)) {
            throw new IllegalArgumentException("neither " + name + " nor " + name + ".gz is there to draw from");
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gzipped))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
