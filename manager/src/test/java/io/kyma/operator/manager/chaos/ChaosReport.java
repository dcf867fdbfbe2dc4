package io.kyma.operator.manager.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a scenario's rows go: {@code target/chaos/<scenario>.csv} always, and the directory named by
 * {@code -Dchaos.record} too ({@code make chaos} names {@code docs/chaos}), from which docs/reliability.md's tables
 * are rendered.
 */
final class ChaosReport {
    private ChaosReport() {}

    static void record(String scenario, String environment, List<ChaosRow> rows) {
        record(
                scenario,
                environment,
                ChaosRow.HEADER,
                rows.stream().map(ChaosRow::fields).toList());
    }

    /** The writers table of a scenario with several replicas, as {@code <scenario>-writers.csv}. */
    static void recordWriters(String scenario, String environment, List<WriterRow> rows) {
        record(
                scenario + "-writers",
                environment,
                WriterRow.HEADER,
                rows.stream().map(WriterRow::fields).toList());
    }

    private static void record(String scenario, String environment, List<String> header, List<List<String>> rows) {
        StringBuilder csv = new StringBuilder("# ")
                .append(environment)
                .append('\n')
                .append(ChaosRow.csvLine(header))
                .append('\n');
        for (List<String> row : rows) {
            csv.append(ChaosRow.csvLine(row)).append('\n');
            System.out.println(scenario + ": " + ChaosRow.csvLine(row));
        }
        write(Path.of("target", "chaos", scenario + ".csv"), csv.toString());
        String record = System.getProperty("chaos.record", "");
        if (!record.isBlank()) {
            write(Path.of(record, scenario + ".csv"), csv.toString());
        }
    }

    /** Lines for a person to read after a run, in {@code target/chaos/<name>}. */
    static void writeLines(String name, List<String> lines) {
        write(Path.of("target", "chaos", name), String.join("\n", lines) + "\n");
    }

    /** The JVM that ran the scenario, as the table's caption says it. */
    static String environment() {
        return "OpenJDK " + System.getProperty("java.specification.version") + " (" + System.getProperty("java.vm.name")
                + "), operator JVM flags: default; kube-apiserver v1.20.2 and etcd on "
                + Runtime.getRuntime().availableProcessors() + " cores";
    }

    /** The lines of a recorded file, as fields, and the line that says what produced them. */
    record Recorded(String environment, List<List<String>> lines) {
        List<ChaosRow> rows() {
            return lines.stream().map(ChaosRow::parse).toList();
        }

        List<WriterRow> writerRows() {
            return lines.stream().map(WriterRow::parse).toList();
        }
    }

    static Recorded read(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            List<List<String>> rows = new ArrayList<>();
            for (String line : lines.subList(2, lines.size())) {
                if (!line.isBlank()) {
                    rows.add(ChaosRow.parseCsvLine(line));
                }
            }
            return new Recorded(lines.get(0).substring(2), rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A scenario's table as docs/reliability.md shows it. */
    static String markdown(Recorded recorded) {
        StringBuilder table = new StringBuilder();
        table.append("| faults | load | end state | converged after | requests during the faults (without) |"
                + " requests in all (without), errors injected | reconciles per resource per minute (without) |"
                + " states skipped / repeated / early | Runs started twice | the operator's metrics during the faults"
                + " |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (ChaosRow row : recorded.rows()) {
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.1f s | %d (%d) | %d (%d), %d | %s (%s) |" + " %d / %d / %d | %d | %s |%n",
                    row.faults(),
                    row.load(),
                    row.endState(),
                    row.convergedSeconds(),
                    row.requestsFault(),
                    row.requestsBaseline(),
                    row.requestsTotal(),
                    row.requestsTotalBaseline(),
                    row.injected(),
                    figure(row.reconcilesFault()),
                    figure(row.reconcilesBaseline()),
                    row.skipped(),
                    row.repeated(),
                    row.early(),
                    row.runsStartedTwice(),
                    row.metrics()));
        }
        table.append("\n")
                .append(
                        recorded.rows().isEmpty()
                                ? ""
                                : "Scale: " + recorded.rows().get(0).scale() + ". ")
                .append(recorded.environment())
                .append(".\n");
        return table.toString();
    }

    private static String figure(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
