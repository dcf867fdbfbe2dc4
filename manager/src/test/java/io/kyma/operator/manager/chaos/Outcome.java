package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kyma.operator.testing.LifecycleOracle;

/**
 * What one run of a scenario's load ended with.
 *
 * @param kymas phase by Kyma
 * @param runs phase and reason by Run ("Succeeded/Completed")
 * @param components the lifecycle oracle's verdict on every component
 * @param jobStarts jobs the job service started for each Run
 * @param converged from the end of the faults (or the creation of the load) until everything had settled
 * @param faultWindow how long the faults lasted
 * @param requestsDuringFault requests the operator sent to the API server during the fault window, watches left out
 * @param requests requests the operator sent for the whole load, watches left out
 * @param injected requests the fault proxy answered itself with an error
 * @param duringFault what the operator's metrics counted during the fault window (null when not read)
 */
record Outcome(
        Map<String, String> kymas,
        Map<String, String> runs,
        LifecycleOracle.Verdict components,
        Map<String, Long> jobStarts,
        Duration converged,
        Duration faultWindow,
        long requestsDuringFault,
        long requests,
        long injected,
        ReplicaMetrics.Snapshot duringFault) {

    /**
     * What the oracle holds against this run, one line each, named {@code name}: components that skipped, repeated or
     * hurried a state or did not finish, Runs whose job was started twice or never.
     */
    List<String> violations(String name, ChaosLoad load) {
        List<String> found = new ArrayList<>();
        if (!components.passed() || components.finished() != load.components()) {
            found.add(name + ": " + components);
        }
        if (runsStartedTwice() > 0 || jobStarts.containsValue(0L)) {
            found.add(name + ": jobs started per Run " + jobStarts);
        }
        return found;
    }

    /** {@link #violations} and every end state that differs from {@code baseline}'s. */
    List<String> violations(String name, ChaosLoad load, Outcome baseline) {
        List<String> found = violations(name, load);
        if (!differencesFrom(baseline).isEmpty()) {
            found.add(name + ": end state differs: " + differencesFrom(baseline));
        }
        return found;
    }

    /** Runs whose job was started more than once. */
    long runsStartedTwice() {
        return jobStarts.values().stream().filter(n -> n > 1).count();
    }

    /** The Kymas and Runs whose end state differs from {@code baseline}'s, one line each. */
    List<String> differencesFrom(Outcome baseline) {
        List<String> differences = new ArrayList<>();
        baseline.kymas.forEach((name, phase) -> {
            if (!phase.equals(kymas.get(name))) {
                differences.add("Kyma " + name + ": " + kymas.get(name) + " (without faults: " + phase + ")");
            }
        });
        baseline.runs.forEach((name, phase) -> {
            if (!phase.equals(runs.get(name))) {
                differences.add("Run " + name + ": " + runs.get(name) + " (without faults: " + phase + ")");
            }
        });
        return differences;
    }

    /** The differences from {@code baseline} grouped: "6 Runs Failed/JobLost (without faults: Succeeded/Completed)". */
    List<String> differenceSummary(Outcome baseline) {
        Map<String, Integer> groups = new TreeMap<>();
        baseline.kymas.forEach((name, phase) -> {
            if (!phase.equals(kymas.get(name))) {
                groups.merge("Kymas " + kymas.get(name) + " (without faults: " + phase + ")", 1, Integer::sum);
            }
        });
        baseline.runs.forEach((name, phase) -> {
            if (!phase.equals(runs.get(name))) {
                groups.merge("Runs " + runs.get(name) + " (without faults: " + phase + ")", 1, Integer::sum);
            }
        });
        List<String> lines = new ArrayList<>();
        groups.forEach((what, count) -> lines.add(count + " " + what));
        return lines;
    }

    /** Reconciles per resource per minute during the fault window, from the operator's own counter. */
    double reconcilesPerResourcePerMinute(int resources) {
        if (duringFault == null || faultWindow.isZero()) {
            return Double.NaN;
        }
        return duringFault.reconciles() / resources / (faultWindow.toMillis() / 60_000.0);
    }
}
