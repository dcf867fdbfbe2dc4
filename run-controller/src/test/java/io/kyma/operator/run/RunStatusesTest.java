package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;

class RunStatusesTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final RunStatuses statuses = new RunStatuses(Clock.fixed(T0, ZoneOffset.UTC));

    @Test
    void aStartedRunIsRunningNotYetSucceededWithItsRemoteIdAndReachable() {
        RunStatus status = statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090"));
        assertThat(status.getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(status.getRemoteId()).isEqualTo("job-1");
        assertThat(status.getStartTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(status.getObservedGeneration()).isEqualTo(2L);
        assertThat(status.getConditions())
                .extracting(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason())
                .containsExactly("Succeeded=Unknown JobRunning", "RemoteReachable=True Answered");
    }

    @Test
    void aRunStartedByAnOlderOperatorBecomesRunningAtItsNextPoll() {
        Run legacy = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        legacy.getStatus().setPhase(RunPhase.UNKNOWN);
        legacy.getStatus().setConditions(new java.util.ArrayList<>());
        RunStatus next = statuses.polled(legacy, new RemoteJob("job-1", "running", null, false), Optional.empty());
        assertThat(next.getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(next.getConditions())
                .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Succeeded=Unknown"));
        assertThat(RunStatuses.onlyProgress(legacy.getStatus(), next))
                .as("written at once, not at the status interval")
                .isFalse();
    }

    @Test
    void aFinishedJobFlipsSucceededFromUnknownToItsOutcome() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        RunStatus done = statuses.polled(run, new RemoteJob("job-1", "succeeded", "ok\n", false), Optional.empty());
        assertThat(done.getConditions())
                .filteredOn(c -> c.getType().equals("Succeeded"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("True");
                    assertThat(c.getReason()).isEqualTo("JobSucceeded");
                });
        run.setStatus(statuses.started(run(null), "job-2", JobServerUrl.parse("http://jobs:9090")));
        RunStatus failed = statuses.polled(run, new RemoteJob("job-2", "failed", "boom\n", false), Optional.empty());
        assertThat(failed.getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(failed.getConditions())
                .filteredOn(c -> c.getType().equals("Succeeded"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("JobFailed");
                });
    }

    @Test
    void nothingIsWrittenWhileNeitherStateNorLogChanged() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        RunStatus first = statuses.polled(run, new RemoteJob("job-1", "running", "a\n", false), Optional.empty());
        assertThat(RunStatuses.needsWrite(run.getStatus(), first))
                .as("the log appeared")
                .isTrue();
        run.setStatus(first);
        RunStatus same = statuses.polled(run, new RemoteJob("job-1", "running", "a\n", false), Optional.empty());
        assertThat(RunStatuses.needsWrite(run.getStatus(), same)).isFalse();
        RunStatus grown = statuses.polled(run, new RemoteJob("job-1", "running", "a\nb\n", false), Optional.empty());
        assertThat(RunStatuses.needsWrite(run.getStatus(), grown)).isTrue();
    }

    @Test
    void aDrainLabelOutsideTheHandOverIsReportedAndTheReportIsANewWrite() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        run.getMetadata().setLabels(Map.of(Labels.SHARD_DRAIN, "hold"));
        RunStatus next = statuses.polled(run, new RemoteJob("job-1", "running", null, false), Optional.empty());
        assertThat(next.getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("ShardLabels");
            assertThat(c.getReason()).isEqualTo("UnknownDrainValue");
            assertThat(c.getMessage()).startsWith("Run r has kyma-project.io/shard-drain=hold: ignored");
        });
        assertThat(RunStatuses.needsWrite(run.getStatus(), next)).isTrue();
        assertThat(RunStatuses.onlyProgress(run.getStatus(), next))
                .as("written at once, not paced")
                .isFalse();
        run.setStatus(next);
        run.getMetadata().setLabels(Map.of());
        RunStatus cleared = statuses.polled(run, new RemoteJob("job-1", "running", null, false), Optional.empty());
        assertThat(cleared.getConditions())
                .noneSatisfy(c -> assertThat(c.getType()).isEqualTo("ShardLabels"));
    }

    @Test
    void completionSetsPhaseTimeAndMessageFromTheLastLogLine() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        RunStatus done = statuses.polled(
                run, new RemoteJob("job-1", "failed", "step 1\njob x failed\n", false), Optional.empty());
        assertThat(done.getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(done.getCompletionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(done.getMessage()).isEqualTo("job failed: job x failed");
    }

    @Test
    void anEndedJobSaysSoInTheSucceededCondition() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        for (String[] ending : new String[][] {
            {"succeeded", "True", "JobSucceeded"},
            {"failed", "False", "JobFailed"},
            {"cancelled", "False", "JobCancelled"}
        }) {
            RunStatus done = statuses.polled(run, new RemoteJob("job-1", ending[0], "", false), Optional.empty());
            assertThat(done.getConditions())
                    .filteredOn(c -> c.getType().equals("Succeeded"))
                    .singleElement()
                    .satisfies(c -> {
                        assertThat(c.getStatus()).isEqualTo(ending[1]);
                        assertThat(c.getReason()).isEqualTo(ending[2]);
                        assertThat(c.getMessage()).isEqualTo("job " + ending[0]);
                    });
        }
    }

    @Test
    void aRunIsUnreachableWhileItsLastAttemptFoundNoServiceAndItHasNotEnded() {
        Run fresh = run(null);
        assertThat(RunStatuses.unreachable(fresh)).as("no status yet").isFalse();
        Run started = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        assertThat(RunStatuses.unreachable(started)).isFalse();
        RemoteJobException refused =
                new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, "connection refused", null);
        Run down = run(statuses.unreachable(started, refused));
        assertThat(RunStatuses.unreachable(down)).isTrue();
        Run notStartedYet = run(statuses.unreachable(fresh, refused));
        assertThat(RunStatuses.unreachable(notStartedYet))
                .as("the start itself found no service")
                .isTrue();
        Run failed = run(statuses.unreachable(started, refused));
        failed.getStatus().setPhase(RunPhase.FAILED);
        assertThat(RunStatuses.unreachable(failed))
                .as("an ended Run no longer retries")
                .isFalse();
    }

    @Test
    void anOutageFlipsRemoteReachableOnceAndRepeatsOfItWriteNothing() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        RemoteJobException refused =
                new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, "connection refused", null);
        RunStatus down = statuses.unreachable(run, refused);
        assertThat(down.getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(down.getConditions())
                .filteredOn(c -> c.getType().equals(RunStatuses.REMOTE_REACHABLE))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("Unreachable");
                    assertThat(c.getMessage()).isEqualTo("connection refused; retrying with backoff");
                });
        assertThat(RunStatuses.needsWrite(run.getStatus(), down)).isTrue();
        run.setStatus(down);
        assertThat(RunStatuses.needsWrite(run.getStatus(), statuses.unreachable(run, refused)))
                .isFalse();
    }

    @Test
    void aCancelEndsTheRunFailedWithTheReasonItWasCancelledFor() {
        Run run = run(statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090")));
        run = run(statuses.cancelling(
                run, "job-1", JobServerUrl.parse("http://jobs:9090"), "Timeout", "the job did not finish within 30s"));
        assertThat(run.getStatus().getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(RunStatuses.cancelling(run.getStatus())).isPresent();
        RunStatus status = statuses.cancelled(run, null);
        assertThat(status.getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(status.getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Succeeded");
            assertThat(c.getReason()).isEqualTo("Timeout");
        });
        assertThat(status.getMessage()).isEqualTo("the job did not finish within 30s; the job was cancelled");
        assertThat(RunStatuses.cancelling(status)).isEmpty();
    }

    private static Run run(RunStatus status) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("r")
                .withNamespace("ns")
                .withGeneration(2L)
                .build());
        run.setStatus(status);
        return run;
    }
}
