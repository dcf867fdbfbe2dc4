package io.kyma.operator.manager.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One line of a scenario's table in docs/reliability.md: one kind of fault against the same load with and without
 * faults. Written as CSV by the run that measured it and rendered into the document from that file.
 *
 * @param scale "short" (make test) or "full" (make chaos)
 * @param faults what was injected, and how often
 * @param load "6 Kymas (108 components), 6 Runs"
 * @param endState the end states against the run without faults
 * @param convergedSeconds from the end of the faults until everything had settled
 * @param requestsFault requests to the API server during the fault window (watches left out)
 * @param requestsBaseline the same window of the run without faults
 * @param requestsTotal requests for the whole load with faults, injected errors included
 * @param requestsTotalBaseline the same without faults
 * @param injected errors the proxy injected
 * @param reconcilesFault reconciles per resource per minute during the fault window
 * @param reconcilesBaseline the same for the run without faults
 * @param metrics what the operator's metrics counted during the faults
 */
record ChaosRow(
        String scale,
        String faults,
        String load,
        String endState,
        double convergedSeconds,
        long requestsFault,
        long requestsBaseline,
        long requestsTotal,
        long requestsTotalBaseline,
        long injected,
        double reconcilesFault,
        double reconcilesBaseline,
        int skipped,
        int repeated,
        int early,
        long runsStartedTwice,
        String metrics) {

    static final List<String> HEADER = List.of(
            "scale",
            "faults",
            "load",
            "end_state",
            "converged_s",
            "requests_fault",
            "requests_baseline",
            "requests_total",
            "requests_total_baseline",
            "errors_injected",
            "reconciles_per_resource_min_fault",
            "reconciles_per_resource_min_baseline",
            "states_skipped",
            "states_repeated",
            "transitions_early",
            "runs_started_twice",
            "metrics");

    List<String> fields() {
        return List.of(
                scale,
                faults,
                load,
                endState,
                format(convergedSeconds),
                Long.toString(requestsFault),
                Long.toString(requestsBaseline),
                Long.toString(requestsTotal),
                Long.toString(requestsTotalBaseline),
                Long.toString(injected),
                format(reconcilesFault),
                format(reconcilesBaseline),
                Integer.toString(skipped),
                Integer.toString(repeated),
                Integer.toString(early),
                Long.toString(runsStartedTwice),
                metrics);
    }

    static ChaosRow parse(List<String> f) {
        return new ChaosRow(
                f.get(0),
                f.get(1),
                f.get(2),
                f.get(3),
                Double.parseDouble(f.get(4)),
                Long.parseLong(f.get(5)),
                Long.parseLong(f.get(6)),
                Long.parseLong(f.get(7)),
                Long.parseLong(f.get(8)),
                Long.parseLong(f.get(9)),
                Double.parseDouble(f.get(10)),
                Double.parseDouble(f.get(11)),
                Integer.parseInt(f.get(12)),
                Integer.parseInt(f.get(13)),
                Integer.parseInt(f.get(14)),
                Long.parseLong(f.get(15)),
                f.get(16));
    }

    /** The row of a scenario from its two outcomes. */
    static ChaosRow of(String faults, ChaosLoad load, Outcome baseline, Outcome faulted) {
        int resources = load.kymas() + load.components() + load.runs();
        long runsDiffering = faulted.differencesFrom(baseline).stream()
                .filter(d -> d.startsWith("Run "))
                .count();
        List<String> differences = faulted.differenceSummary(baseline);
        long ready = faulted.kymas().values().stream().filter("Ready"::equals).count();
        String endState = ready + "/" + load.kymas() + " Kymas Ready, " + (load.runs() - runsDiffering) + "/"
                + load.runs() + " Runs as without faults"
                + (differences.isEmpty() ? "" : ": " + String.join("; ", differences));
        return new ChaosRow(
                ChaosLoad.full() ? "full" : "short",
                faults,
                load.kymas() + " Kymas (" + load.components() + " components), " + load.runs() + " Runs",
                endState,
                faulted.converged().toMillis() / 1000.0,
                faulted.requestsDuringFault(),
                baseline.requestsDuringFault(),
                faulted.requests(),
                baseline.requests(),
                faulted.injected(),
                faulted.reconcilesPerResourcePerMinute(resources),
                baseline.reconcilesPerResourcePerMinute(resources),
                faulted.components().skipped().size(),
                faulted.components().repeated().size(),
                faulted.components().early().size(),
                faulted.runsStartedTwice(),
                faulted.duringFault() == null ? "-" : faulted.duringFault().describe());
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.1f", value);
    }

    /** CSV as RFC 4180 has it: fields with commas, quotes or line ends quoted, quotes doubled. */
    static String csvLine(List<String> fields) {
        List<String> quoted = new ArrayList<>();
        for (String field : fields) {
            quoted.add(field.matches(".*[\",\\r\\n].*") ? "\"" + field.replace("\"", "\"\"") + "\"" : field);
        }
        return String.join(",", quoted);
    }

    static List<String> parseCsvLine(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
