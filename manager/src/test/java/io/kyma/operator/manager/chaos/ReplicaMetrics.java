package io.kyma.operator.manager.chaos;

import java.util.function.Supplier;

/**
 * What an operator replica's own metrics say, read from its Prometheus text: reconciles, reconcile errors, workqueue
 * retries, write conflicts and how the API server answered, so a scenario can show that the metrics tell an operator
 * what happened.
 */
final class ReplicaMetrics {
    /** Counters summed over controllers, and the API answers by class. */
    record Snapshot(
            double reconciles,
            double errors,
            double retries,
            double conflicts,
            double requests,
            double throttled,
            double serverErrors,
            double connectionErrors) {
        Snapshot minus(Snapshot earlier) {
            return new Snapshot(
                    reconciles - earlier.reconciles,
                    errors - earlier.errors,
                    retries - earlier.retries,
                    conflicts - earlier.conflicts,
                    requests - earlier.requests,
                    throttled - earlier.throttled,
                    serverErrors - earlier.serverErrors,
                    connectionErrors - earlier.connectionErrors);
        }

        Snapshot plus(Snapshot other) {
            return new Snapshot(
                    reconciles + other.reconciles,
                    errors + other.errors,
                    retries + other.retries,
                    conflicts + other.conflicts,
                    requests + other.requests,
                    throttled + other.throttled,
                    serverErrors + other.serverErrors,
                    connectionErrors + other.connectionErrors);
        }

        static final Snapshot ZERO = new Snapshot(0, 0, 0, 0, 0, 0, 0, 0);

        /** The figures an operator would look at, as the table shows them. */
        String describe() {
            return String.format(
                    "429: %.0f, 5xx: %.0f, conn errors: %.0f, reconcile errors: %.0f, retries: %.0f,"
                            + " conflicts: %.0f",
                    throttled, serverErrors, connectionErrors, errors, retries, conflicts);
        }
    }

    private ReplicaMetrics() {}

    static Snapshot read(Supplier<String> scrape) {
        String text = scrape.get();
        double reconciles = 0;
        double errors = 0;
        double retries = 0;
        double conflicts = 0;
        double requests = 0;
        double throttled = 0;
        double serverErrors = 0;
        double connectionErrors = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            double value = Double.parseDouble(line.substring(space + 1));
            String series = line.substring(0, space);
            String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
            switch (name) {
                case "controller_runtime_reconcile_total" -> reconciles += value;
                case "controller_runtime_reconcile_errors_total" -> errors += value;
                case "workqueue_retries_total" -> retries += value;
                case "kyma_operator_reconcile_conflicts_total" -> conflicts += value;
                case "rest_client_requests_total" -> {
                    requests += value;
                    if (series.contains("code=\"429\"")) {
                        throttled += value;
                    } else if (series.contains("code=\"5")) {
                        serverErrors += value;
                    } else if (series.contains("code=\"<error>\"")) {
                        connectionErrors += value;
                    }
                }
                default -> {}
            }
        }
        return new Snapshot(
                reconciles, errors, retries, conflicts, requests, throttled, serverErrors, connectionErrors);
    }
}
