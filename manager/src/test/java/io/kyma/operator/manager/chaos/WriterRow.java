package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One line of the leader-churn writers table in docs/reliability.md: who wrote to the API server when, over a run of
 * the load with three replicas. Written as CSV by the run that measured it and rendered from that file.
 *
 * @param scale "short" (make test) or "full" (make chaos)
 * @param faults what was done to the leaders
 * @param processes operator processes that ran, restarts included
 * @param leaseHolders how many times the lease was taken (its transitions plus the first)
 * @param writeTerms runs of successful writes by one process
 * @param writes successful writes, leases and events left out
 * @param overlapping terms that began before the previous one's last write had ended: must be 0
 * @param interleaved processes that wrote in more than one term: must be 0
 * @param leastGapSeconds the shortest time from one writer's last write to the next one's first (NaN with one term)
 * @param longestGapSeconds the longest such time
 * @param partition what the partitioned leader did ("-" without a partition)
 */
record WriterRow(
        String scale,
        String faults,
        int processes,
        int leaseHolders,
        int writeTerms,
        int writes,
        int overlapping,
        int interleaved,
        double leastGapSeconds,
        double longestGapSeconds,
        String partition) {

    static final List<String> HEADER = List.of(
            "scale",
            "faults",
            "processes",
            "lease_holders",
            "write_terms",
            "writes",
            "overlapping",
            "interleaved",
            "least_handover_gap_s",
            "longest_handover_gap_s",
            "partitioned_leader");

    static WriterRow of(String faults, int processes, int leaseHolders, Writers.Verdict verdict, String partition) {
        return new WriterRow(
                ChaosLoad.full() ? "full" : "short",
                faults,
                processes,
                leaseHolders,
                verdict.terms().size(),
                verdict.writes(),
                verdict.overlapping().size(),
                verdict.interleaved().size(),
                seconds(verdict.leastGap()),
                seconds(verdict.longestGap()),
                partition);
    }

    List<String> fields() {
        return List.of(
                scale,
                faults,
                Integer.toString(processes),
                Integer.toString(leaseHolders),
                Integer.toString(writeTerms),
                Integer.toString(writes),
                Integer.toString(overlapping),
                Integer.toString(interleaved),
                format(leastGapSeconds),
                format(longestGapSeconds),
                partition);
    }

    static WriterRow parse(List<String> f) {
        return new WriterRow(
                f.get(0),
                f.get(1),
                Integer.parseInt(f.get(2)),
                Integer.parseInt(f.get(3)),
                Integer.parseInt(f.get(4)),
                Integer.parseInt(f.get(5)),
                Integer.parseInt(f.get(6)),
                Integer.parseInt(f.get(7)),
                Double.parseDouble(f.get(8)),
                Double.parseDouble(f.get(9)),
                f.get(10));
    }

    /** The table as docs/reliability.md shows it. */
    static String markdown(String environment, List<WriterRow> rows) {
        StringBuilder table = new StringBuilder();
        table.append("| leaders | processes | lease holders | terms of writes | writes | overlapping / interleaved"
                + " terms | handover gap, least to longest | the partitioned leader |\n");
        table.append("|---|---|---|---|---|---|---|---|\n");
        for (WriterRow row : rows) {
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %d | %d | %d / %d | %s | %s |%n",
                    row.faults(),
                    row.processes(),
                    row.leaseHolders(),
                    row.writeTerms(),
                    row.writes(),
                    row.overlapping(),
                    row.interleaved(),
                    Double.isNaN(row.leastGapSeconds())
                            ? "-"
                            : format(row.leastGapSeconds()) + " to " + format(row.longestGapSeconds()) + " s",
                    row.partition()));
        }
        table.append("\n")
                .append(rows.isEmpty() ? "" : "Scale: " + rows.get(0).scale() + ". ")
                .append(environment)
                .append(".\n");
        return table.toString();
    }

    static double seconds(Duration duration) {
        return duration == null ? Double.NaN : duration.toMillis() / 1000.0;
    }

    static String format(double value) {
        return Double.isNaN(value) ? "NaN" : String.format(Locale.ROOT, "%.1f", value);
    }
}
