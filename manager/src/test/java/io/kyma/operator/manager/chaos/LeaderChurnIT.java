package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.helmcomponent.ComponentLifecycle;
import io.kyma.operator.manager.Samples;
import io.kyma.operator.testing.HangCatcher;

/**
 * Fault scenario 5, leader churn: three replicas of the operator jar with {@code --leader-elect}, each reaching the
 * API server through a proxy of its own that records every request. Like Knative's chaosduck, the leader is killed
 * with SIGKILL every period and started again as a follower; once, instead, the leader is cut off from the API server
 * (its proxy stops answering) until it has given the lease up and exited, and then let back. The same oracle as every
 * scenario judges the end state, and the proxies' records show that no two processes wrote at once: the successful
 * writes fall into terms of one writer each that do not overlap, and no process writes again after another took over.
 * <p>
 * The replicas elect with the default Lease timing (15 s, a renew deadline of 10 s, a try every 2 s) at both scales,
 * so that the handovers measured are the ones a deployment gets; a longer Lease would stretch each past the short
 * scale's 20 s period. On a busy machine a leader can miss its renew deadline without any fault: it steps down and
 * exits, is started again as a Deployment's pod would be, and another takes over. That handover is judged as the
 * faults' are, in the run without faults too.
 */
class LeaderChurnIT {
    private static final ChaosLoad LOAD = ChaosLoad.full()
            ? ChaosLoad.standard(Duration.ofSeconds(3), 90)
            : ChaosLoad.standard(Duration.ofMillis(700), 30);
    private static final int REPLICAS = 3;
    /** A fault every period after the load was created, as chaosduck kills a leader every 30 s. */
    private static final Duration PERIOD = Duration.ofSeconds(ChaosLoad.full() ? 30 : 20);

    private static final int FAULTS = ChaosLoad.full() ? 6 : 2;
    /** The fault (counted from 0) that partitions the leader instead of killing it. */
    private static final int PARTITIONED = ChaosLoad.full() ? 3 : 1;
    /** Longer than the 15 s lease, so that another replica takes over while the leader is cut off. */
    private static final Duration PARTITION = Duration.ofSeconds(20);

    private static final String LEASE = "kyma-operator-leader";

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    /** One run of the load with three replicas and what its proxies recorded. */
    private record Churn(
            Outcome outcome,
            Writers.Verdict writers,
            int processes,
            int leaseHolders,
            int faultsOnTheLoad,
            String partition,
            List<String> problems) {}

    @Test
    void atMostOneReplicaWritesAtATimeAndTheLoadEndsAsWithoutChurn() {
        // The faults fall on the load by construction: the last one is due before the slowest component can reach
        // its end (the oracle fails any transition that comes early), and a slower machine only makes the load
        // longer.
        assertThat(PERIOD.multipliedBy(FAULTS))
                .as("the last fault's time after the load was created")
                .isLessThan(slowestComponent());
        Churn baseline = run("churn-baseline", false);
        Churn churn = run("churn-kills", true);
        String faults = (FAULTS - 1) + (FAULTS == 2 ? " leader" : " leaders")
                + " killed with SIGKILL and 1 cut off from the API server for "
                + PARTITION.toSeconds() + " s, one every " + PERIOD.toSeconds() + " s (" + churn.faultsOnTheLoad()
                + " while Kymas progressed), " + REPLICAS + " replicas";
        ChaosReport.record(
                "leader-churn",
                ChaosReport.environment(),
                List.of(ChaosRow.of(faults, LOAD, baseline.outcome(), churn.outcome())));
        ChaosReport.recordWriters(
                "leader-churn",
                ChaosReport.environment(),
                List.of(
                        WriterRow.of(
                                "none, " + REPLICAS + " replicas",
                                baseline.processes(),
                                baseline.leaseHolders(),
                                baseline.writers(),
                                "-"),
                        WriterRow.of(
                                faults, churn.processes(), churn.leaseHolders(), churn.writers(), churn.partition())));

        assertThat(baseline.problems()).isEmpty();
        assertThat(churn.problems()).isEmpty();
        // With faults or without, what matters is that at most one process writes at a time: terms that do not
        // overlap, no process writing again once another took over, and no more writers than the Lease had holders.
        // Without faults the first leader keeps the Lease as a rule, but one that misses its renew deadline (a busy
        // machine can delay a renewal past it) steps down and another takes over: the writers table records how
        // many holders the Lease had, and that handover must be as clean as the faults' are.
        for (Churn run : List.of(baseline, churn)) {
            assertThat(run.writers().overlapping()).as("writers overlapping").isEmpty();
            assertThat(run.writers().interleaved())
                    .as("processes that wrote again after another took over")
                    .isEmpty();
            assertThat(run.writers().terms().size())
                    .as("terms of writes against the lease's holders")
                    .isBetween(1, run.leaseHolders());
        }
        if (baseline.leaseHolders() > 1) {
            System.out.println("leader-churn: without faults the Lease had " + baseline.leaseHolders()
                    + " holders; a leader missed its renew deadline and stepped down");
        }
        assertThat(churn.faultsOnTheLoad()).as("faults that fell on the load").isEqualTo(FAULTS);
        // Each fault falls on a leader that has written (the schedule waits for its first write), and ends that
        // process's writing: each of the faulted processes is a term of its own.
        assertThat(churn.writers().terms().size())
                .as("each fault hands the writing over")
                .isGreaterThanOrEqualTo(FAULTS);
        assertThat(churn.outcome().violations("churn", LOAD, baseline.outcome()))
                .isEmpty();
        assertThat(baseline.outcome().violations("baseline", LOAD)).isEmpty();
    }

    private static Churn run(String namespace, boolean churn) {
        List<Replica> replicas = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (Trial trial = new Trial(ENV.admin(), namespace, LOAD)) {
            List<String> flags = new ArrayList<>(LOAD.operatorFlags(ENV.jobs().url()));
            flags.addAll(List.of("--leader-elect", "--leader-election-namespace", trial.namespace()));
            for (int i = 1; i <= REPLICAS; i++) {
                replicas.add(Replica.start("replica-" + i, trial.namespace(), flags));
            }
            leader(trial, replicas, problems);
            trial.createLoad();
            trial.at(PERIOD);
            trial.faultsBegin(metrics(replicas));
            int onTheLoad = 0;
            String partition = "-";
            for (int fault = 0; fault < FAULTS; fault++) {
                trial.at(PERIOD.multipliedBy(fault + 1L));
                if (!churn) {
                    leader(trial, replicas, problems);
                    continue;
                }
                Replica leader = writingLeader(trial, replicas, problems);
                onTheLoad += progressing(trial) ? 1 : 0;
                if (fault == PARTITIONED) {
                    partition = partition(trial, leader, replicas, problems);
                } else {
                    leader.kill();
                    leader.restart();
                }
            }
            trial.faultsEnd(metrics(replicas));
            trial.awaitSettled();
            List<Writers.Write> writes = new ArrayList<>();
            replicas.forEach(r -> writes.addAll(r.writes()));
            writes.sort(Comparator.comparing(Writers.Write::start));
            ChaosReport.writeLines(
                    namespace + "-writes.txt",
                    writes.stream()
                            .map(w -> w.start() + " " + w.end() + " " + w.writer() + " " + w.what())
                            .toList());
            Outcome outcome = trial.outcome(
                    ENV.jobs(), replicas.stream().map(Replica::proxy).toList());
            // the default Lease of an operator that watches one namespace names it
            Lease lease = ENV.admin()
                    .leases()
                    .inNamespace(trial.namespace())
                    .withName(LEASE + "-" + trial.namespace())
                    .get();
            int holders =
                    Optional.ofNullable(lease.getSpec().getLeaseTransitions()).orElse(0) + 1;
            return new Churn(
                    outcome,
                    Writers.judge(writes),
                    replicas.stream().mapToInt(Replica::incarnations).sum(),
                    holders,
                    onTheLoad,
                    partition,
                    problems);
        } finally {
            replicas.forEach(Replica::close);
        }
    }

    /**
     * Cuts the leader off until it has given up the lease and exited and another replica leads, and for at least
     * {@link #PARTITION}; then lets it back and starts it again. Says how long the leader took to step down.
     */
    private static String partition(Trial trial, Replica leader, List<Replica> replicas, List<String> problems) {
        Instant cut = Instant.now();
        leader.metrics();
        leader.proxy().partition();
        trial.until(() -> {
            leader.metrics(); // its last counts before it exits
            return leader.process().exited().isPresent();
        });
        Duration steppedDown = Duration.between(cut, leader.process().exited().orElseThrow());
        List<Replica> others = replicas.stream().filter(r -> r != leader).toList();
        Replica next = leader(trial, others, problems);
        Duration tookOver = Duration.between(cut, Instant.now());
        Trial.until(cut.plus(PARTITION));
        leader.proxy().heal();
        leader.restart();
        return String.format(
                Locale.ROOT,
                "exited %.1f s after the cut; %s led %.1f s after it",
                steppedDown.toMillis() / 1000.0,
                next.name(),
                tookOver.toMillis() / 1000.0);
    }

    /**
     * Waits until one replica leads and returns it; more than one saying so at once is a problem. A replica whose
     * process ended on its own (a leader that missed its renew deadline exits) is started again first, as a
     * Deployment's would be.
     */
    private static Replica leader(Trial trial, List<Replica> replicas, List<String> problems) {
        replicas.forEach(Replica::restartIfEndedOnItsOwn);
        List<Replica> leading = new ArrayList<>();
        trial.until(() -> {
            leading.clear();
            replicas.stream().filter(Replica::leading).forEach(leading::add);
            return !leading.isEmpty();
        });
        if (leading.size() > 1) {
            problems.add("at " + Instant.now() + " "
                    + leading.stream().map(Replica::name).toList() + " all said they led");
        }
        return leading.get(0);
    }

    /**
     * The leader once it has had a write accepted, while Kymas progress: a fault on a leader that took over moments
     * ago and has written nothing yet would hand nothing over. How soon a new leader writes depends on how busy the
     * machine is, so the schedule waits for it rather than assuming it.
     */
    private static Replica writingLeader(Trial trial, List<Replica> replicas, List<String> problems) {
        Instant deadline = Instant.now().plus(HangCatcher.STEP);
        while (true) {
            Replica leader = leader(trial, replicas, problems);
            if (leader.wrote() || !progressing(trial)) {
                return leader;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(leader.name() + " led for " + HangCatcher.STEP.toSeconds()
                        + " s and wrote nothing while Kymas progressed");
            }
            Trial.until(Instant.now().plusMillis(200));
        }
    }

    /** How long the slowest module's component takes from creation to success at the load's unit, at the least. */
    private static Duration slowestComponent() {
        ComponentLifecycle lifecycle = new ComponentLifecycle(LOAD.unit());
        return Samples.MODULES.stream()
                .map(lifecycle::timeToSuccess)
                .max(Comparator.naturalOrder())
                .orElseThrow();
    }

    private static boolean progressing(Trial trial) {
        return ENV.admin().resources(Kyma.class).inNamespace(trial.namespace()).list().getItems().stream()
                .anyMatch(k -> k.getStatus() == null || k.getStatus().getPhase() != KymaPhase.READY);
    }

    private static ReplicaMetrics.Snapshot metrics(List<Replica> replicas) {
        ReplicaMetrics.Snapshot sum = ReplicaMetrics.Snapshot.ZERO;
        for (Replica replica : replicas) {
            sum = sum.plus(replica.metrics());
        }
        return sum;
    }
}
