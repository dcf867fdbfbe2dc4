package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;

/**
 * Fault scenario 4, the job service misbehaves while Runs poll it: it is down, answers slower than the request
 * timeout, answers 5xx, answers garbage, or restarts with an empty store. Every Run whose job runs into the fault
 * must say RemoteReachable=False while it lasts, and all end as without faults; a restart that forgets the jobs must
 * end those Runs Failed/JobLost, never start a job twice.
 */
class JobServiceOutageIT {
    /**
     * Jobs of 6 s at the small scale: the fault begins once the last Run has recorded its job, and a Run whose job
     * ended before that is not asked about the fault; the last one's must still run however long its record took.
     */
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), ChaosLoad.full() ? 25 : 6);

    private static final Faults.Window WINDOW = ChaosLoad.full()
            ? new Faults.Window(Duration.ofSeconds(3), Duration.ofSeconds(20))
            : new Faults.Window(Duration.ofSeconds(1), Duration.ofSeconds(2));
    private static final String RESTART_NS = "jobs-fault-restart";
    private static final List<String> FLAGS = List.of("--remote-request-timeout", "1s");

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    @Test
    void runsSayTheServiceIsUnreachableWhileItIsAndEndAsWithoutFaults() {
        // the Runs whose job ran into each fault, by the fault's index: those that must say it
        Map<Integer, Set<String>> ranInto = new ConcurrentHashMap<>();
        // each fault lasts at least the window and until every Run whose job ran into it has said the service is
        // unreachable: a Run that did not ask the service within a window of fixed length, on a slow machine, would
        // have nothing to say
        List<Faults> outages = List.of(
                outage(
                        ranInto,
                        0,
                        "job service down (connections refused)",
                        () -> ENV.jobs().refuseFor(Duration.ofMinutes(1)),
                        () -> ENV.jobs().listenAgain()),
                outage(
                        ranInto,
                        1,
                        "job service answers after 1.5 s, beyond the 1 s request timeout",
                        () -> ENV.jobs().faults().latency(Duration.ofMillis(1500)),
                        () -> ENV.jobs().faults().latency(Duration.ZERO)),
                outage(
                        ranInto,
                        2,
                        "job service answers 503",
                        () -> ENV.jobs().faults().errorRate(1.0),
                        () -> ENV.jobs().faults().errorRate(0)),
                outage(
                        ranInto,
                        3,
                        "job service answers garbage (HTML)",
                        () -> ENV.jobs().faults().garbageRate(1.0),
                        () -> ENV.jobs().faults().garbageRate(0)));
        if (ChaosEnvironment.coldJvm()) {
            Faults.NONE.run(ENV.admin(), "jobs-warm-up", LOAD, ENV.jobs(), WINDOW, FLAGS);
        }
        Outcome baseline = Faults.NONE
                .run(ENV.admin(), "jobs-baseline", LOAD, ENV.jobs(), WINDOW, FLAGS)
                .outcome();
        List<ChaosRow> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int index = 0; index < outages.size(); index++) {
            Faults outage = outages.get(index);
            Faults.Result faulted = outage.run(ENV.admin(), faultNamespace(index), LOAD, ENV.jobs(), WINDOW, FLAGS);
            Outcome outcome = faulted.outcome();
            rows.add(ChaosRow.of(outage.name(), LOAD, baseline, outcome));
            failures.addAll(outcome.violations(outage.name(), LOAD, baseline));
            // A Run whose job had ended before the fault began may have read its end before it, and has nothing to
            // say about the fault; the last Run to start its job cannot be one of them, so some Run is always checked.
            Set<String> checked = ranInto.getOrDefault(index, Set.of());
            for (String name : checked) {
                List<String> reachable = reachability(faulted.trial().runVersions(name));
                if (!reachable.contains("False") || !"True".equals(reachable.get(reachable.size() - 1))) {
                    failures.add(outage.name() + ": Run " + name + " RemoteReachable went " + reachable);
                }
            }
            if (checked.isEmpty()) {
                failures.add(outage.name() + ": every Run's job had ended before the fault began");
            }
        }

        // once every Run has started its job, so that every Run has one to lose; on a slow machine the first Runs may
        // have finished theirs by then, and those (Succeeded right after the restart, which knows no job) keep it
        Set<String> doneBeforeRestart = ConcurrentHashMap.newKeySet();
        Faults forgetful = Faults.of(
                "job service restarts with an empty store, every job running",
                p -> {
                    awaitEveryJobStarted(RESTART_NS);
                    ENV.jobs().restart();
                    runs(RESTART_NS).stream()
                            .filter(r -> r.getStatus().getPhase() == RunPhase.SUCCEEDED)
                            .forEach(r -> doneBeforeRestart.add(r.getMetadata().getName()));
                },
                p -> {});
        Faults.Result restarted = forgetful.run(ENV.admin(), RESTART_NS, LOAD, ENV.jobs(), WINDOW, FLAGS);
        rows.add(ChaosRow.of(forgetful.name(), LOAD, baseline, restarted.outcome()));
        failures.addAll(restarted.outcome().violations(forgetful.name(), LOAD));
        Map<String, String> ends = restarted.outcome().runs();
        assertThat(doneBeforeRestart)
                .as("Runs whose job was still running when the service forgot it")
                .hasSizeLessThan(ends.size());
        ends.forEach((name, end) -> assertThat(end)
                .as("a job the service forgot cannot be finished or restarted: " + name)
                .isEqualTo(doneBeforeRestart.contains(name) ? "Succeeded/JobSucceeded" : "Failed/JobLost"));

        ChaosReport.record("job-service-outages", ChaosReport.environment(), rows);
        assertThat(failures).isEmpty();
    }

    private static String faultNamespace(int index) {
        return "jobs-fault-" + index;
    }

    /** A fault of the job service that begins with {@code start} and ends, once every Run saw it, with {@code stop}. */
    private static Faults outage(
            Map<Integer, Set<String>> ranInto, int index, String name, Runnable start, Runnable stop) {
        return Faults.of(
                name,
                p -> {
                    // once every Run has started its job, so that each has a job to ask about: an operator that
                    // starts slowly would otherwise meet the fault before its first call
                    awaitEveryJobStarted(faultNamespace(index));
                    start.run();
                    Instant began = Instant.now();
                    await().atMost(Duration.ofMinutes(1))
                            .untilAsserted(() -> assertThat(runs(faultNamespace(index)).stream()
                                            .filter(r -> !endedBefore(r, began) && !"False".equals(reachable(r)))
                                            .map(JobServiceOutageIT::describe)
                                            .toList())
                                    .as("Runs whose job ran into the fault and that have not said"
                                            + " RemoteReachable=False")
                                    .isEmpty());
                    ranInto.put(
                            index,
                            runs(faultNamespace(index)).stream()
                                    .filter(r -> !endedBefore(r, began))
                                    .map(r -> r.getMetadata().getName())
                                    .collect(Collectors.toCollection(TreeSet::new)));
                },
                p -> stop.run());
    }

    /**
     * Whether the Run's job had ended, by the job service's clock, before {@code instant}. A job that ended later
     * cannot have been read as ended without a call that met the fault first.
     */
    private static boolean endedBefore(Run run, Instant instant) {
        return run.getStatus() != null
                && run.getStatus().getRemoteId() != null
                && ENV.jobs()
                        .endsAt(run.getStatus().getRemoteId())
                        .filter(end -> end.isBefore(instant))
                        .isPresent();
    }

    /** A Run's name, phase and reachability, for a failure's message. */
    private static String describe(Run run) {
        return run.getMetadata().getName() + " "
                + (run.getStatus() == null
                        ? "no status"
                        : run.getStatus().getPhase() + " RemoteReachable=" + reachable(run));
    }

    /** Waits until every Run of {@code namespace} has recorded the job it started. */
    private static void awaitEveryJobStarted(String namespace) {
        await().atMost(Duration.ofMinutes(1))
                .until(() -> runs(namespace).stream()
                        .allMatch(r -> r.getStatus() != null && r.getStatus().getRemoteId() != null));
    }

    private static List<Run> runs(String namespace) {
        return ENV.admin().resources(Run.class).inNamespace(namespace).list().getItems();
    }

    private static String reachable(Run run) {
        return run.getStatus() == null
                ? null
                : run.getStatus().getConditions().stream()
                        .filter(c -> c.getType().equals("RemoteReachable"))
                        .map(Condition::getStatus)
                        .findFirst()
                        .orElse(null);
    }

    /** The values RemoteReachable took, in order, without repeats. */
    private static List<String> reachability(List<Run> versions) {
        List<String> seen = new ArrayList<>();
        for (Run run : versions) {
            String value = reachable(run);
            if (value != null && (seen.isEmpty() || !seen.get(seen.size() - 1).equals(value))) {
                seen.add(value);
            }
        }
        return seen;
    }
}
