package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** What the Run controller does given the Run and what the job service answers. */
class RunReconcilerTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FakeJobs jobs = new FakeJobs();
    private final List<RunStatus> written = new ArrayList<>();
    private final RunReconciler reconciler = new RunReconciler(clock, new RunSettings(
            Optional.of(JobServerUrl.parse("http://jobs:9090")), Duration.ofSeconds(5), Duration.ofMinutes(5),
            ServerAllowList.parse("jobs")), jobs, (run, status, context) -> written.add(status));

    @Test
    void aSpecItCannotCarryOutFailsWithoutAskingTheService() throws RemoteJobException {
        Run run = run(null);
        run.getSpec().setServer("http://elsewhere:9090");
        UpdateControl<Run> control = reconcile(run);
        assertThat(jobs.calls).isEmpty();
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getConditions()).singleElement().satisfies(c -> assertThat(c.getReason())
                .isEqualTo("ServerNotAllowed"));
        assertThat(control.getScheduleDelay()).isEmpty();
    }

    @Test
    void aNewRunStartsItsJobWithItsUidAndPollsAfterTheInterval() throws RemoteJobException {
        UpdateControl<Run> control = reconcile(run(null));
        assertThat(jobs.calls).containsExactly("start build uid-r");
        assertThat(last().getRemoteId()).isEqualTo("job-1");
        assertThat(last().getPhase()).isEqualTo(RunPhase.UNKNOWN);
        assertThat(control.getScheduleDelay()).contains(5000L);
    }

    @Test
    void aStateItDoesNotKnowMeansStillRunning() throws RemoteJobException {
        jobs.answer = new RemoteJob("job-1", "queued", "", false);
        UpdateControl<Run> control = reconcile(run("job-1"));
        assertThat(last().getPhase()).isEqualTo(RunPhase.UNKNOWN);
        assertThat(last().getMessage()).isEqualTo("job queued");
        assertThat(control.getScheduleDelay()).isPresent();
    }

    @Test
    void anUnreachableServiceIsATransientFailureTheStatusSaysIsRetried() {
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null);
        assertThatThrownBy(() -> reconcile(run("job-1"))).isSameAs(jobs.failure);
        assertThat(last().getPhase()).isEqualTo(RunPhase.UNKNOWN);
        assertThat(last().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("RemoteReachable");
            assertThat(c.getReason()).isEqualTo("Unreachable");
            assertThat(c.getMessage()).endsWith("; retrying with backoff");
        });
    }

    @Test
    void anAnswerOverTheLimitFailsTheRunForGood() throws RemoteJobException {
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.TOO_LARGE, "too large", null);
        UpdateControl<Run> control = reconcile(run("job-1"));
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getConditions()).anySatisfy(c -> assertThat(c.getReason()).isEqualTo("AnswerTooLarge"));
        assertThat(control.getScheduleDelay()).isEmpty();
    }

    @Test
    void aFinishedRunIsLeftAlone() throws RemoteJobException {
        Run run = run("job-1");
        run.getStatus().setPhase(RunPhase.SUCCEEDED);
        reconcile(run);
        assertThat(jobs.calls).isEmpty();
        assertThat(written).isEmpty();
    }

    private UpdateControl<Run> reconcile(Run run) throws RemoteJobException {
        return reconciler.reconcile(run, new FakeContext<>(run, List.of()));
    }

    private RunStatus last() {
        return written.get(written.size() - 1);
    }

    @Test
    void onlyAFinishedRunWithItsSpecObservedCanWaitBehindDueWork() {
        Run run = run("job-1");
        run.getStatus().setObservedGeneration(1L);
        assertThat(reconciler.canWait(run)).as("running: polls are due").isFalse();
        run.getStatus().setPhase(RunPhase.SUCCEEDED);
        assertThat(reconciler.canWait(run)).isTrue();
        run.getStatus().setPhase(RunPhase.FAILED);
        assertThat(reconciler.canWait(run)).isTrue();
        run.getMetadata().setDeletionTimestamp("2026-01-01T00:01:00Z");
        assertThat(reconciler.canWait(run)).as("its cleanup is due").isFalse();
        assertThat(reconciler.canWait(run(null))).as("new").isFalse();
    }

    private Run run(String remoteId) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder().withName("r").withNamespace("ns").withUid("uid-r").withGeneration(1L)
                .withCreationTimestamp("2026-01-01T00:00:00Z").build());
        run.setSpec(new RunSpec());
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName("build");
        if (remoteId != null) {
            run.setStatus(new RunStatus());
            run.getStatus().setRemoteId(remoteId);
            run.getStatus().setPhase(RunPhase.UNKNOWN);
            run.getStatus().setStartTime(clock.instant().toString());
        }
        return run;
    }

    private static final class FakeJobs implements JobService {
        final List<String> calls = new ArrayList<>();
        RemoteJob answer = new RemoteJob("job-1", "running", "");
        RemoteJobException failure;

        @Override
        public String start(JobServerUrl server, String name, Map<String, String> params, String key)
                throws RemoteJobException {
            calls.add("start " + name + " " + key);
            if (failure != null) {
                throw failure;
            }
            return "job-1";
        }

        @Override
        public RemoteJob get(JobServerUrl server, String id, int tailBytes) throws RemoteJobException {
            calls.add("get " + id);
            if (failure != null) {
                throw failure;
            }
            return answer;
        }

        @Override
        public void cancel(JobServerUrl server, String id) {
            calls.add("cancel " + id);
        }
    }
}
