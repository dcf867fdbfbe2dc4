package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.Samples;
import io.kyma.operator.testing.EmbeddedControlPlane;

/**
 * Fault scenario 1, crashes: the operator jar runs as a process of its own and is killed with SIGKILL at random
 * moments of the load, then started again, again and again; twice the kill comes after the job service started a
 * Run's job and before the operator could write that down. Nothing may be lost or done twice: every component walks
 * every state once and in order, no transition comes early, and every Run's job is started once.
 */
class CrashLoopIT {
    // slow enough that the load lasts through every kill (a new JVM takes seconds to start)
    private static final ChaosLoad LOAD = ChaosLoad.full()
            ? ChaosLoad.standard(Duration.ofSeconds(1), 40)
            : ChaosLoad.standard(Duration.ofMillis(600), 20);
    private static final int KILLS = ChaosLoad.full() ? 20 : 10;
    /** The kills that come between a job's start and the status write that records it. */
    private static final Set<Integer> AFTER_A_JOB_START = Set.of(3, 7);

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();
    /** Kills that came while some Kyma was still progressing: the ones that fell on the load. */
    private static int killsDuringLoad;

    @Test
    void killedAtRandomMomentsItLosesNothingAndDoesNothingTwice() throws IOException {
        Outcome baseline = run("crash-baseline", false);
        Outcome crashed = run("crash-kills", true);
        ChaosRow row = ChaosRow.of(
                KILLS + " kills with SIGKILL (" + killsDuringLoad + " while Kymas progressed), 0.2"
                        + " to 1 s after each start (" + AFTER_A_JOB_START.size()
                        + " right after a job start), each followed by"
                        + " a new process",
                LOAD,
                baseline,
                crashed);
        ChaosReport.record("crash-loop", ChaosReport.environment(), List.of(row));

        // How many kills fall on the load depends on how long a new JVM takes to start here, against a load that
        // needs 67 units at the least; the row above reports it. At make chaos's scale, one scenario at a time, half
        // of them must. At the short scale, where other test JVMs share the cores, only the first is certain to: it
        // comes within a second of the load's creation.
        assertThat(killsDuringLoad).as("kills that fell on the load").isGreaterThanOrEqualTo(ChaosLoad.full() ? 10 : 1);
        assertThat(crashed.differencesFrom(baseline)).isEmpty();
        assertThat(crashed.components().passed())
                .as(crashed.components().toString())
                .isTrue();
        assertThat(crashed.components().finished()).isEqualTo(LOAD.components());
        assertThat(crashed.jobStarts())
                .as("jobs started per Run")
                .hasSize(LOAD.runs() + AFTER_A_JOB_START.size())
                .allSatisfy((run, starts) -> assertThat(starts).as(run).isEqualTo(1L));
    }

    private static Outcome run(String namespace, boolean kill) throws IOException {
        Path kubeconfig = Files.createTempFile("chaos-kubeconfig", ".yaml");
        Path log = Path.of("target", "chaos", namespace + "-operator.log");
        Files.createDirectories(log.getParent());
        Random random = new Random(13);
        // Straight to the API server, as deployed (watches over WebSocket); its requests are counted by its own
        // metrics, read just before each kill.
        try (Trial trial = new Trial(ENV.admin(), namespace, LOAD)) {
            Files.writeString(kubeconfig, EmbeddedControlPlane.get().kubeconfigYaml());
            List<String> flags = LOAD.operatorFlags(ENV.jobs().url());
            OperatorJar operator = OperatorJar.start(kubeconfig, trial.namespace(), flags, log);
            try {
                trial.createLoad();
                trial.faultsBegin(ReplicaMetrics.Snapshot.ZERO);
                ReplicaMetrics.Snapshot ended = ReplicaMetrics.Snapshot.ZERO;
                for (int k = 1; k <= KILLS; k++) {
                    if (AFTER_A_JOB_START.contains(k)) {
                        // the job service starts the job at once and answers the start 3 s later (polls are not slowed,
                        // so
                        // the load's running Runs do not queue ahead of it): the kill falls in between
                        ENV.jobs().faults().startLatency(Duration.ofSeconds(3));
                        Run run = ENV.admin()
                                .resource(Samples.run(
                                        trial.namespace(),
                                        "c" + k,
                                        "build",
                                        Map.of("durationSeconds", "1"),
                                        "200ms",
                                        null))
                                .create();
                        trial.until(() -> ENV.jobs()
                                .jobsStartedPerKey()
                                .containsKey(run.getMetadata().getUid()));
                    } else {
                        LockSupport.parkNanos(
                                Duration.ofMillis(200 + random.nextInt(800)).toNanos());
                    }
                    if (kill) {
                        if (ENV.admin().resources(Kyma.class).inNamespace(trial.namespace()).list().getItems().stream()
                                .anyMatch(y ->
                                        y.getStatus() == null || y.getStatus().getPhase() != KymaPhase.READY)) {
                            killsDuringLoad++;
                        }
                        ended = ended.plus(operator.metrics());
                        operator.kill();
                        ENV.jobs().faults().startLatency(Duration.ZERO);
                        operator = OperatorJar.start(kubeconfig, trial.namespace(), flags, log);
                    } else {
                        ENV.jobs().faults().startLatency(Duration.ZERO);
                    }
                }
                trial.faultsEnd(ended.plus(operator.metrics()));
                trial.awaitSettled();
                return trial.outcome(ENV.jobs(), List.of(), trial.watchedComponents(), ended.plus(operator.metrics()));
            } finally {
                ENV.jobs().faults().startLatency(Duration.ZERO);
                operator.close();
            }
        } finally {
            Files.deleteIfExists(kubeconfig);
        }
    }
}
