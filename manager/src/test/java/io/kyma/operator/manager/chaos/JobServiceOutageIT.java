package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.Run;
import io.kyma.operator.testing.HangCatcher;

/**
 * Fault scenario 4, the job service misbehaves while Runs poll it: it is down, answers slower than the request
 * timeout, answers 5xx, answers garbage, or restarts with an empty store. Every Run whose job runs into the fault
 * must say RemoteReachable=False while it lasts, and all end as without faults; a restart that forgets the jobs must
 * end those Runs Failed/JobLost, never start a job twice.
 */
class JobServiceOutageIT {
    /**
     * Jobs of 6 s at the small scale: each outage begins once the job service has started every Run's job, and a Run
     * whose job ended before that is not asked about the fault; the last job to start is still running then, however
     * busy the machine, as the test only has to see the start to begin.
     */
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), ChaosLoad.full() ? 25 : 6);
    /**
     * The restart's load: the same, with jobs of 15 s at the small scale. The restart must wait until every Run has
     * recorded its job (a start whose answer the restart cut off would be sent again, to a service that no longer
     * knows it, and start a second job), and on a busy machine the last record can come seconds after the last start;
     * a job must still be running then.
     */
    private static final ChaosLoad RESTART_LOAD = ChaosLoad.full() ? LOAD : ChaosLoad.standard(LOAD.unit(), 15);

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
                        // longer than the wait for the Runs to say so: the outage ends when they have
                        () -> ENV.jobs().refuseFor(HangCatcher.STEP.plusMinutes(1)),
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

        // Once every Run has recorded its job, so that every Run has one to lose. On a slow machine the first jobs
        // may have ended by then, by the service's clock: a Run that read that end before the restart is Succeeded,
        // one that had not is lost with the rest. A job still running at the restart can only be lost.
        Set<String> endedBeforeRestart = ConcurrentHashMap.newKeySet();
        Faults forgetful = Faults.of(
                "job service restarts with an empty store, every job running",
                p -> {
                    awaitEveryJobRecorded(RESTART_NS);
                    Map<String, Instant> endsAt = new TreeMap<>();
                    for (Run run : runs(RESTART_NS)) {
                        ENV.jobs()
                                .endsAt(run.getStatus().getRemoteId())
                                .ifPresent(end -> endsAt.put(run.getMetadata().getName(), end));
                    }
                    ENV.jobs().restart();
                    Instant restartedAt = Instant.now();
                    endsAt.forEach((name, end) -> {
                        if (end.isBefore(restartedAt)) {
                            endedBeforeRestart.add(name);
                        }
                    });
                },
                p -> {});
        Faults.Result restarted = forgetful.run(ENV.admin(), RESTART_NS, RESTART_LOAD, ENV.jobs(), WINDOW, FLAGS);
        rows.add(ChaosRow.of(forgetful.name(), RESTART_LOAD, baseline, restarted.outcome()));
        failures.addAll(restarted.outcome().violations(forgetful.name(), RESTART_LOAD));
        Map<String, String> ends = restarted.outcome().runs();
        assertThat(endedBeforeRestart)
                .as("Runs whose job had ended when the service forgot it: some must have been running")
                .hasSizeLessThan(ends.size());
        ends.forEach((name, end) -> {
            if (endedBeforeRestart.contains(name)) {
                assertThat(end)
                        .as("a job that had ended before the restart is read or lost: " + name)
                        .isIn("Succeeded/JobSucceeded", "Failed/JobLost");
            } else {
                assertThat(end)
                        .as("a job the service forgot cannot be finished or restarted: " + name)
                        .isEqualTo("Failed/JobLost");
            }
        });

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
                    // once the service has started every Run's job, so that each has a job to ask about: an operator
                    // that starts slowly would otherwise meet the fault before its first call. A Run that has not
                    // recorded its job yet asks about it once it has, and meets the fault then.
                    awaitEveryJobStarted(faultNamespace(index));
                    start.run();
                    Instant began = Instant.now();
                    await().atMost(HangCatcher.STEP)
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

    /** Waits until the job service has started a job for every Run of {@code namespace} (each Run's uid is its key). */
    private static void awaitEveryJobStarted(String namespace) {
        await().atMost(HangCatcher.STEP)
                .until(() -> ENV.jobs()
                        .jobsStartedPerKey()
                        .keySet()
                        .containsAll(runs(namespace).stream()
                                .map(r -> r.getMetadata().getUid())
                                .toList()));
    }

    /** Waits until every Run of {@code namespace} has recorded the job it started. */
    private static void awaitEveryJobRecorded(String namespace) {
        await().atMost(HangCatcher.STEP)
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
