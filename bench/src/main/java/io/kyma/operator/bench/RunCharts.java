package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Draws the charts a kept run lacks from the data files the run wrote, and links them from its report again. A run
 * folder under {@code docs/bench/} keeps its data files (gzipped when large) but not always its charts; each chart is a
 * function of the run's data files, so it can be drawn again at any time, the same as the bench drew it.
 */
final class RunCharts {
    /** A chart, the data files it is drawn from, and the link the bench's report gives it ("" where it gives none). */
    enum Chart {
        READY("ready.png", "![ready](ready.png)", "ready-times.csv"),
        PROGRESS("progress.png", "![progress](progress.png)", "timeseries.csv"),
        MEMORY("memory.png", "![memory](memory.png)", "timeseries.csv", "heap-by-objects.csv"),
        LATENESS("lateness.png", "", "lateness.csv");

        /**
         * What a report says in place of a chart's link when the run was kept without it: "(chart `x.png` not kept)",
         * in the archive with a reason after "not kept".
         */
        static final Pattern NOT_KEPT = Pattern.compile("\\(chart `([a-z-]+\\.png)` not kept[^)]*\\)");

        final String file;
        final String link;
        final List<String> data;

        Chart(String file, String link, String... data) {
            this.file = file;
            this.link = link;
            this.data = List.of(data);
        }
    }

    /** What a folder got: the charts drawn, and those it lacks that its data files cannot give ("chart: why"). */
    record Outcome(List<Chart> drawn, List<String> notDrawn) {}

    private RunCharts() {}

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("Usage: java -cp bench/target/kyma-bench.jar " + RunCharts.class.getName()
                    + " RUN_FOLDER...\nDraws the charts each run folder lacks from its data files.");
            System.exit(2);
        }
        boolean complete = true;
        for (String arg : args) {
            try {
                Outcome outcome = drawMissing(Path.of(arg));
                System.out.println(arg + ": "
                        + (outcome.drawn().isEmpty() ? "nothing drawn" : "drew " + outcome.drawn())
                        + (outcome.notDrawn().isEmpty() ? "" : "; could not draw " + outcome.notDrawn()));
                complete &= outcome.notDrawn().isEmpty();
            } catch (IOException | RuntimeException e) {
                System.err.println(arg + ": " + (e instanceof IllegalArgumentException ? e.getMessage() : e));
                complete = false;
            }
        }
        if (!complete) {
            System.exit(1);
        }
    }

    /**
     * Draws each chart the folder lacks whose data files it has, then puts back the report's link to every chart now
     * there.
     */
    static Outcome drawMissing(Path run) throws IOException {
        if (!Files.isDirectory(run)) {
            throw new IllegalArgumentException("no such run folder");
        }
        List<Chart> drawn = new ArrayList<>();
        List<String> notDrawn = new ArrayList<>();
        for (Chart chart : Chart.values()) {
            if (Files.exists(run.resolve(chart.file))) {
                continue;
            }
            List<String> missing = chart.data.stream()
                    .filter(name -> !KeptFile.exists(run.resolve(name)))
                    .toList();
            if (!missing.isEmpty()) {
                notDrawn.add(chart.file + ": no " + String.join(" or ", missing));
                continue;
            }
            try {
                draw(run, chart);
                drawn.add(chart);
            } catch (RuntimeException e) {
                // a malformed data file spoils its own chart only
                notDrawn.add(chart.file + ": " + e.getMessage());
            }
        }
        Path report = run.resolve("report.md");
        if (Files.exists(report)) {
            String text = Files.readString(report);
            String linked = relink(run, text);
            if (!linked.equals(text)) {
                Files.writeString(report, linked);
            }
        }
        return new Outcome(drawn, notDrawn);
    }

    /** The report with each "not kept" note replaced by the bench's link, for every chart the folder now has. */
    private static String relink(Path run, String report) {
        Matcher notes = Chart.NOT_KEPT.matcher(report);
        StringBuilder out = new StringBuilder();
        while (notes.find()) {
            String file = notes.group(1);
            String link = Arrays.stream(Chart.values())
                    .filter(c -> c.file.equals(file) && !c.link.isEmpty() && Files.exists(run.resolve(c.file)))
                    .map(c -> c.link)
                    .findFirst()
                    .orElse(notes.group());
            notes.appendReplacement(out, Matcher.quoteReplacement(link));
        }
        return notes.appendTail(out).toString();
    }

    private static void draw(Path run, Chart chart) throws IOException {
        Path out = run.resolve(chart.file);
        switch (chart) {
            case READY -> Charts.readyTimes(ReadyTimes.parse(data(run, chart, 0)), out);
            case PROGRESS -> Charts.progress(Sampler.parse(data(run, chart, 0)), out);
            case MEMORY -> Charts.memory(Sampler.parse(data(run, chart, 0)), HeapCurve.parse(data(run, chart, 1)), out);
            case LATENESS -> Charts.lateness(Charts.parseBuckets(data(run, chart, 0)), out);
        }
    }

    private static String data(Path run, Chart chart, int index) throws IOException {
        return KeptFile.read(run.resolve(chart.data.get(index)));
    }
}
