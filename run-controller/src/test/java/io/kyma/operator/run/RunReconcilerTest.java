package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** What the Run controller does given the Run and what the job service answers. */
@SuppressWarnings("unchecked")
class RunReconcilerTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FakeJobs jobs = new FakeJobs();
    private final List<RunStatus> written = new ArrayList<>();
    /** Status writes still to refuse, as the API server would with a 409. */
    private int refuseWrites;

    private final List<Runnable> timed = new ArrayList<>();
    /** The delays calls were asked for after, in order. */
    private final List<Duration> delays = new ArrayList<>();

    private final JobCalls.Timer timer = (delay, task) -> {
        timed.add(task);
        delays.add(delay);
        return () -> timed.remove(task);
    };
    private final JobCalls calls =
            new JobCalls(4, 2, Long.MAX_VALUE, 0, Duration.ofSeconds(1), Duration.ofSeconds(60), clock, timer);
    private final RunReconciler reconciler = new RunReconciler(
            clock,
            new RunSettings(
                    Optional.of(JobServerUrl.parse("http://jobs:9090")),
                    Duration.ofSeconds(5),
                    Duration.ofMinutes(5),
                    ServerAllowList.parse("jobs,other"),
                    Duration.ofSeconds(10)),
            jobs,
            calls,
            (run, status, context) -> {
                if (refuseWrites > 0) {
                    refuseWrites--;
                    throw new KubernetesClientException("the object has been modified", 409, null);
                }
                written.add(status);
                run.setStatus(status); // as the informer brings it back
            });

    @Test
    void aSpecItCannotCarryOutFailsWithoutAskingTheService() throws RemoteJobException {
        Run run = run(null);
        run.getSpec().setServer("http://elsewhere:9090");
        UpdateControl<Run> control = reconcile(run);
        assertThat(jobs.calls).isEmpty();
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getReason()).isEqualTo("ServerNotAllowed"));
        assertThat(control.getScheduleDelay()).isEmpty();
    }

    @Test
    void aNewRunStartsItsJobWithItsUidAndPollsAfterTheInterval() throws RemoteJobException {
        UpdateControl<Run> control = reconcile(run(null));
        assertThat(jobs.calls).containsExactly("start build uid-r on http://jobs:9090");
        assertThat(last().getRemoteId()).isEqualTo("job-1");
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(timed)
                .as("the first poll is asked for with the start's answer")
                .hasSize(1);
        assertThat(control.getScheduleDelay()).contains(RunReconciler.RECHECK.toMillis());
    }

    @Test
    void aJobIsFollowedAtTheAddressItsStartConnectedToWhereverItsNamePointsLater() throws Exception {
        jobs.connectedTo = InetAddress.getByName("10.0.0.5");
        Run run = run(null);
        reconcile(run);
        assertThat(last().getServer()).isEqualTo("http://jobs:9090");
        assertThat(last().getServerAddress()).isEqualTo("10.0.0.5");
        run.setStatus(last());
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(jobs.calls).contains("get job-1 on http://jobs:9090 at 10.0.0.5");
        assertThat(last().getServerAddress()).as("kept by every later status").isEqualTo("10.0.0.5");
        run.setStatus(last());
        run.getMetadata().setDeletionTimestamp("2026-01-01T00:00:10Z");
        reconciler.cleanup(run, new FakeContext<>(run, List.of()));
        assertThat(jobs.calls).last().isEqualTo("cancel job-1 on http://jobs:9090 at 10.0.0.5");
    }

    @Test
    void aRecordedAddressThatIsNoAddressIsNotLookedUp() throws RemoteJobException {
        Run run = run("job-1");
        run.getStatus().setServerAddress("metadata.internal");
        reconcile(run);
        assertThat(jobs.calls)
                .as("nothing called at a name written as the address")
                .doesNotContain("get job-1 on http://jobs:9090");
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("InvalidServer"));
    }

    @Test
    void aStateItDoesNotKnowMeansStillRunning() throws RemoteJobException {
        jobs.answer = new RemoteJob("job-1", "queued", "", false);
        UpdateControl<Run> control = reconcile(run("job-1"));
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(last().getMessage()).isEqualTo("job queued");
        assertThat(control.getScheduleDelay()).isPresent();
    }

    @Test
    void anUnreachableServiceIsATransientFailureTheStatusSaysIsRetriedWithBackoff() {
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null);
        Run run = run("job-1");
        run.getSpec().setPollInterval("100ms"); // the backoff, not the interval, paces the retry
        reconcile(run);
        assertThat(delays).as("the retry, asked for after the backoff").containsExactly(Duration.ofSeconds(1));
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(delays).as("the second failure in a row").last().isEqualTo(Duration.ofSeconds(2));
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
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
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("AnswerTooLarge"));
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

    @Test
    void aReconcileNeverWaitsForTheServiceAndTheAnswerBringsItBack() throws RemoteJobException {
        List<ResourceID> events = new ArrayList<>();
        calls.onAnswer(events::add);
        jobs.hold = true;
        Run run = run(null);
        UpdateControl<Run> first = reconcile(run);
        assertThat(first.getScheduleDelay())
                .as("looks again only if the answer's event is lost")
                .contains(RunReconciler.RECHECK.toMillis());
        assertThat(written).isEmpty();
        reconcile(run);
        assertThat(jobs.calls).as("one call at a time per Run").hasSize(1);
        assertThat(events).isEmpty();
        startAnswered("job-7");
        assertThat(events).containsExactly(ResourceID.fromResource(run));
        reconcile(run);
        assertThat(last().getRemoteId()).isEqualTo("job-7");
        assertThat(last().getServer()).isEqualTo("http://jobs:9090");
    }

    @Test
    void aJobIsPolledNoMoreOftenThanThePollIntervalWhateverWakesTheRun() throws RemoteJobException {
        Run run = run("job-1");
        reconcile(run);
        reconcile(run);
        assertThat(jobs.calls).containsExactly("get job-1 on http://jobs:9090");
        later(Duration.ofSeconds(5));
        assertThat(jobs.calls)
                .as("asked for with the last answer: no reconcile needed")
                .hasSize(2);
        reconcile(run);
        assertThat(jobs.calls).hasSize(2);
    }

    @Test
    void pollsAndCancelsGoToTheServerTheJobWasStartedOnAndAnEditIsReported() throws RemoteJobException {
        Run run = run("job-1");
        run.getSpec().setServer("http://other:9090");
        reconcile(run);
        assertThat(jobs.calls).containsExactly("get job-1 on http://jobs:9090");
        assertThat(last().getMessage())
                .isEqualTo("job running; spec.server now names http://other:9090, but the job"
                        + " stays on the server it was started on");
        run.getSpec().setTimeout("1s");
        clock.advance(Duration.ofSeconds(5));
        reconcile(run); // past the deadline: a last look at the job first
        later(Duration.ZERO);
        reconcile(run);
        assertThat(jobs.calls).last().isEqualTo("cancel job-1 on http://jobs:9090");
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
    }

    @Test
    void aStatusServerOutsideTheAllowListIsNotCalled() throws RemoteJobException {
        Run run = run("job-1");
        run.getStatus().setServer("http://169.254.169.254");
        reconcile(run);
        assertThat(jobs.calls).isEmpty();
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("ServerNotAllowed"));
    }

    @Test
    void aRunThatFailedBeforeItStartedIsPlannedAgainWhenItsSpecChanges() throws RemoteJobException {
        Run run = run(null);
        run.getSpec().setServer("http://elsewhere:9090");
        reconcile(run);
        run.setStatus(last());
        reconcile(run);
        assertThat(written).as("nothing new to say for the same spec").hasSize(1);
        run.getSpec().setServer("http://other:9090");
        run.getMetadata().setGeneration(2L);
        reconcile(run);
        assertThat(jobs.calls).containsExactly("start build uid-r on http://other:9090");
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(last().getCompletionTime()).isNull();
        assertThat(last().getConditions())
                .as("the earlier failure does not linger: running again")
                .filteredOn(c -> c.getType().equals("Succeeded"))
                .singleElement()
                .satisfies(c -> assertThat(c.getStatus() + " " + c.getReason()).isEqualTo("Unknown JobRunning"));
    }

    @Test
    void aChattyJobIsWrittenAtMostOncePerStatusIntervalButItsEndAtOnce() throws RemoteJobException {
        Run run = run("job-1");
        jobs.answer = new RemoteJob("job-1", "running", "line 1\n", false);
        reconcile(run);
        run.setStatus(last());
        assertThat(written).hasSize(1);
        jobs.answer = new RemoteJob("job-1", "running", "line 1\nline 2\n", false);
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(written).as("5 s after the last write").hasSize(1);
        jobs.answer = new RemoteJob("job-1", "running", "line 1\nline 2\nline 3\n", false);
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(written).hasSize(2);
        assertThat(last().getLogs()).isEqualTo("line 1\nline 2\nline 3\n");
        run.setStatus(last());
        jobs.answer = new RemoteJob("job-1", "succeeded", "line 1\nline 2\nline 3\ndone\n", false);
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(written).hasSize(3);
        assertThat(last().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
        assertThat(calls.tracked()).as("nothing kept for an ended Run").isZero();
        assertThat(reconciler.remembered()).as("nor remembered").isZero();
    }

    @Test
    void aServiceThatAnswersEveryOtherTimeIsWrittenAtMostOncePerStatusInterval() {
        Run run = run("job-1");
        jobs.flapping = new RemoteJobException(RemoteJobException.Kind.SERVER_ERROR, "HTTP 503", null);
        for (int second = 0; second < 120; second++) {
            reconcile(run);
            if (!written.isEmpty()) {
                run.setStatus(last());
            }
            later(Duration.ofSeconds(1));
        }
        assertThat(jobs.calls.size()).as("polled all along").isGreaterThan(20);
        // a change of RemoteReachable at most once per interval, anything else the service says as well
        assertThat(written.size())
                .as("two minutes at a status interval of 10 s")
                .isLessThanOrEqualTo(2 * 120 / 10 + 1);
        System.out.printf(
                "a service answering every other call for 120 s: %d polls, %d status writes%n",
                jobs.calls.size(), written.size());
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
    }

    @Test
    void aJobThatEndedIsReportedAsItEndedEvenWhenItsAnswerIsReadAfterTheDeadline() {
        Run run = run("job-1");
        run.getSpec().setTimeout("10s");
        jobs.hold = true;
        clock.advance(Duration.ofSeconds(9));
        reconcile(run);
        clock.advance(Duration.ofSeconds(2));
        ((CompletableFuture<RemoteJob>) jobs.held.get(0))
                .complete(new RemoteJob("job-1", "succeeded", "done\n", false));
        reconcile(run);
        assertThat(last().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
        assertThat(jobs.calls).noneMatch(c -> c.startsWith("cancel"));
    }

    @Test
    void aJobThatEndedInTimeIsReportedAsItEndedWhenTheWriteOfItsAnswerFailedAndTheRetryComesAfterTheDeadline() {
        Run run = run("job-1");
        run.getSpec().setTimeout("10s");
        jobs.hold = true;
        clock.advance(Duration.ofSeconds(9));
        reconcile(run);
        ((CompletableFuture<RemoteJob>) jobs.held.get(0))
                .complete(new RemoteJob("job-1", "succeeded", "done\n", false));
        refuseWrites = 1;
        Assertions.assertThatThrownBy(() -> reconcile(run)).isInstanceOf(KubernetesClientException.class);
        clock.advance(Duration.ofSeconds(2)); // the retry comes after the deadline
        reconcile(run);
        assertThat(last().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
        assertThat(jobs.calls).noneMatch(c -> c.startsWith("cancel"));
    }

    @Test
    void aRunDeletedWhileItsStartIsOutCancelsTheJobTheStartAnswers() {
        jobs.hold = true;
        Run run = run(null);
        reconcile(run);
        run.getMetadata().setDeletionTimestamp(clock.instant().toString());
        assertThat(reconciler.cleanup(run, new FakeContext<>(run, List.of())).isRemoveFinalizer())
                .as("waits for the start's answer")
                .isFalse();
        startAnswered("job-9");
        jobs.hold = false;
        assertThat(reconciler.cleanup(run, new FakeContext<>(run, List.of())).isRemoveFinalizer())
                .isTrue();
        assertThat(jobs.calls)
                .containsExactly("start build uid-r on http://jobs:9090", "cancel job-9 on http://jobs:9090");
    }

    @Test
    void aRunDeletedWithAPollIntervalThatCannotBeUsedStillCancelsItsJob() {
        Run run = run("job-4");
        run.getSpec().setPollInterval("99999999999999h"); // edited after the start, never reconciled since
        run.getMetadata().setDeletionTimestamp(clock.instant().toString());
        assertThat(reconciler.cleanup(run, new FakeContext<>(run, List.of())).isRemoveFinalizer())
                .isTrue();
        assertThat(jobs.calls).containsExactly("cancel job-4 on http://jobs:9090");
    }

    @Test
    void aJobIsFollowedOnTheServerItsStartWentToWhenSpecServerIsEditedMeanwhile() {
        jobs.hold = true;
        Run run = run(null);
        reconcile(run);
        run.getSpec().setServer("http://other:9090");
        run.getMetadata().setGeneration(2L);
        startAnswered("job-7");
        jobs.hold = false;
        reconcile(run);
        assertThat(last().getRemoteId()).isEqualTo("job-7");
        assertThat(last().getServer())
                .as("where the start went, not the edited spec.server")
                .isEqualTo("http://jobs:9090");
        later(Duration.ofSeconds(5));
        assertThat(jobs.calls)
                .containsExactly("start build uid-r on http://jobs:9090", "get job-7 on http://jobs:9090");
    }

    @Test
    void aRunDeletedWhileItsStartIsOutAndItsServerEditedCancelsWhereTheStartWent() {
        jobs.hold = true;
        Run run = run(null);
        reconcile(run);
        run.getSpec().setServer("http://other:9090");
        run.getMetadata().setDeletionTimestamp(clock.instant().toString());
        startAnswered("job-9");
        jobs.hold = false;
        assertThat(reconciler.cleanup(run, new FakeContext<>(run, List.of())).isRemoveFinalizer())
                .isTrue();
        assertThat(jobs.calls)
                .containsExactly("start build uid-r on http://jobs:9090", "cancel job-9 on http://jobs:9090");
    }

    /** Found by ReliabilityIT: the cancel's answer was dropped by the look for a poll's, and the Run cancelled again. */
    @Test
    void aTimedOutRunIsCancelledOnceWhenItsAnswersComeLater() {
        Run run = run("job-1");
        run.getSpec().setTimeout("0s");
        jobs.hold = true;
        reconcile(run); // timed out while nothing is asked: a last look at the job first
        assertThat(jobs.calls).containsExactly("get job-1 on http://jobs:9090");
        ((CompletableFuture<RemoteJob>) jobs.held.get(0)).complete(new RemoteJob("job-1", "running", "", false));
        reconcile(run); // still running after its deadline: cancelled
        assertThat(jobs.calls).last().isEqualTo("cancel job-1 on http://jobs:9090");
        ((CompletableFuture<Void>) jobs.held.get(1)).complete(null);
        reconcile(run);
        assertThat(jobs.calls).as("one look, one cancel").hasSize(2);
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("Timeout"));
    }

    @Test
    void anOutageShowsAtOnceAfterAWriteOfProgress() {
        Run run = run("job-1");
        jobs.answer = new RemoteJob("job-1", "running", "line 1\n", false);
        reconcile(run);
        run.setStatus(last());
        int before = written.size();
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null);
        later(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(written)
                .as("5 s after the last write, within the status interval")
                .hasSize(before + 1);
        assertThat(last().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("RemoteReachable");
            assertThat(c.getStatus()).isEqualTo("False");
        });
    }

    @Test
    void aJobThatEndedBeforeItsDeadlineIsReportedAsItEndedWhenTheReconcileAtTheDeadlineComesFirst() {
        Run run = run("job-1");
        run.getSpec().setTimeout("10s");
        reconcile(run); // asks the next poll, due at 5 s
        later(Duration.ofSeconds(5)); // answered: running; the next poll is due at the deadline
        reconcile(run);
        jobs.answer = new RemoteJob("job-1", "succeeded", "done\n", false); // ends at 8 s
        clock.advance(Duration.ofSeconds(5));
        reconcile(run); // at the deadline, before the poll due then
        assertThat(jobs.calls)
                .as("the poll due at the deadline is not replaced by a cancel")
                .noneMatch(c -> c.startsWith("cancel"));
        later(Duration.ZERO);
        reconcile(run);
        assertThat(jobs.calls).noneMatch(c -> c.startsWith("cancel"));
        assertThat(last().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
    }

    @Test
    void aStartAnsweredWhoseStatusWriteFailedIsRecordedNotStartedAgainAfterAServerEdit() {
        Run run = run(null);
        refuseWrites = 1;
        assertThatThrownBy(() -> reconcile(run)).isInstanceOf(KubernetesClientException.class);
        run.getSpec().setServer("http://other:9090");
        reconcile(run);
        assertThat(jobs.calls).containsExactly("start build uid-r on http://jobs:9090");
        assertThat(last().getRemoteId()).isEqualTo("job-1");
        assertThat(last().getServer()).isEqualTo("http://jobs:9090");
    }

    @Test
    void aSpecMadeInvalidWhileTheStartIsOutCancelsTheJobTheStartAnswers() {
        jobs.hold = true;
        Run run = run(null);
        reconcile(run);
        run.getSpec().setTimeout("9999999999h");
        run.getMetadata().setGeneration(2L);
        reconcile(run);
        assertThat(written).as("the start is out: its answer decides").isEmpty();
        startAnswered("job-5");
        jobs.hold = false;
        reconcile(run);
        assertThat(jobs.calls)
                .containsExactly("start build uid-r on http://jobs:9090", "cancel job-5 on http://jobs:9090");
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getMessage()).endsWith("; the job was cancelled");
    }

    @Test
    void aSpecEditedIntoOneItCannotCarryOutWhileTheJobRunsCancelsTheJob() {
        Run run = run("job-1");
        run.getSpec().setTimeout("9999999999h");
        run.getMetadata().setGeneration(2L);
        reconcile(run);
        assertThat(jobs.calls).containsExactly("cancel job-1 on http://jobs:9090");
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("InvalidSpec"));
        assertThat(last().getMessage()).endsWith("; the job was cancelled");
    }

    @Test
    void aJobThatCannotBeStartedWithinTheTimeoutEndsTheRun() {
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null);
        Run run = run(null);
        run.getSpec().setTimeout("5s");
        reconcile(run);
        assertThat(delays).as("the first retry").containsExactly(Duration.ofSeconds(1));
        run.setStatus(last());
        clock.advance(Duration.ofSeconds(5));
        reconcile(run);
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getMessage()).isEqualTo("the job could not be started within 5s");
        assertThat(calls.tracked()).isZero();
        assertThat(reconciler.remembered()).isZero();
    }

    @Test
    void aStartOutAtTheDeadlineIsWaitedForSoThatNoJobIsLeftBehind() {
        jobs.hold = true;
        Run run = run(null);
        run.getSpec().setTimeout("5s");
        reconcile(run);
        clock.advance(Duration.ofSeconds(6));
        assertThat(reconcile(run).getScheduleDelay())
                .as("not a look at once, again and again: the answer's event")
                .contains(RunReconciler.RECHECK.toMillis());
        assertThat(written).as("the start is out: its answer decides").isEmpty();
        startAnswered("job-3");
        reconcile(run);
        assertThat(jobs.calls)
                .as("started after its timeout: cancelled, not given the timeout afresh")
                .last()
                .isEqualTo("cancel job-3 on http://jobs:9090");
        ((CompletableFuture<Void>) jobs.held.get(1)).complete(null);
        reconcile(run);
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
        assertThat(last().getRemoteId()).isEqualTo("job-3");
        assertThat(last().getMessage()).isEqualTo("the job was started only after 5s; the job was cancelled");
        assertThat(last().getConditions())
                .anySatisfy(c -> assertThat(c.getReason()).isEqualTo("Timeout"));
    }

    @Test
    void aStartAnsweredInTimeButTakenAfterTheDeadlineIsFollowedNotCancelled() {
        jobs.hold = true;
        Run run = run(null);
        run.getSpec().setTimeout("30s");
        reconcile(run);
        clock.advance(Duration.ofSeconds(2));
        startAnswered("job-5");
        clock.advance(Duration.ofSeconds(29)); // a busy pool: the answer is taken at 31 s
        reconcile(run);
        assertThat(last().getRemoteId()).isEqualTo("job-5");
        assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
        assertThat(jobs.calls).noneMatch(c -> c.startsWith("cancel"));
    }

    @Test
    void aLastLookThatFailsEndsInTheCancel() {
        Run run = run("job-1");
        run.getSpec().setTimeout("0s");
        jobs.hold = true;
        UpdateControl<Run> waiting = reconcile(run);
        assertThat(waiting.getScheduleDelay())
                .as("no later than the last look's bound")
                .contains(RunReconciler.LAST_LOOK.toMillis());
        ((CompletableFuture<RemoteJob>) jobs.held.get(0))
                .completeExceptionally(
                        new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null));
        reconcile(run);
        assertThat(jobs.calls).last().isEqualTo("cancel job-1 on http://jobs:9090");
        ((CompletableFuture<Void>) jobs.held.get(1)).complete(null);
        reconcile(run);
        assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
    }

    @Test
    void badAnswersAreTriedAtMostTheCapThenTheRunEndsFailedNamingTheLastAndItsJobIsCancelled() {
        List<String> bad = List.of(
                "a poll of job job-1 answered with the record of job job-2",
                "an answer whose state is not text",
                "an answer with a field given twice",
                "an answer without the job's state");
        for (String what : bad) {
            jobs.calls.clear();
            Run run = run("job-1");
            run.getMetadata().setUid("uid-" + bad.indexOf(what));
            jobs.pollFailure = new RemoteJobException(
                    RemoteJobException.Kind.BAD_ANSWER, "the job service answered badly: " + what, null);
            for (int step = 0; step < 50 && !jobs.calls.contains("cancel job-1 on http://jobs:9090"); step++) {
                reconcile(run);
                later(Duration.ofMinutes(2));
            }
            assertThat(jobs.calls.stream().filter(c -> c.startsWith("get")))
                    .as(what)
                    .hasSize(RunReconciler.MAX_BAD_ANSWERS);
            assertThat(jobs.calls).last().isEqualTo("cancel job-1 on http://jobs:9090");
            assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
            assertThat(last().getMessage())
                    .isEqualTo("gave up after " + RunReconciler.MAX_BAD_ANSWERS
                            + " bad answers in a row; the last: the job service answered badly: " + what
                            + "; the job was cancelled");
        }
    }

    @Test
    void aRunDeletedWhileItsStartWaitsForACallSlotOrItsRetryHasItWithdrawnNotSent() {
        // two other Runs' starts hold the server's two slots
        jobs.hold = true;
        for (String other : List.of("a", "b")) {
            Run busy = run(null);
            busy.getMetadata().setUid("uid-" + other);
            busy.getMetadata().setName(other);
            reconcile(busy);
        }
        Run waiting = run(null);
        reconcile(waiting);
        jobs.hold = false;
        jobs.failure = new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, RemoteJobClient.UNREACHABLE, null);
        Run retrying = run(null);
        retrying.getMetadata().setUid("uid-retrying");
        retrying.getSpec().setServer("http://other:9090");
        reconcile(retrying); // fails at once: its next try waits for the backoff
        reconcile(retrying);
        assertThat(jobs.calls)
                .containsExactly(
                        "start build uid-a on http://jobs:9090",
                        "start build uid-b on http://jobs:9090",
                        "start build uid-retrying on http://other:9090");
        for (Run deleted : List.of(waiting, retrying)) {
            deleted.getMetadata().setDeletionTimestamp(clock.instant().toString());
            assertThat(reconciler
                            .cleanup(deleted, new FakeContext<>(deleted, List.of()))
                            .isRemoveFinalizer())
                    .as("nothing was sent for it: nothing to wait for")
                    .isTrue();
        }
        jobs.failure = null;
        ((CompletableFuture<JobService.Start>) jobs.held.get(0))
                .complete(new JobService.Start("job-a", JobServerUrl.parse("http://jobs:9090")));
        later(Duration.ofMinutes(5));
        assertThat(jobs.calls).as("the withdrawn starts are never sent").hasSize(3);
    }

    @Test
    void aCancelRefusedAtTheTimeoutIsRetriedWithBackoffUntilTakenOrTheCleanupTimeout() {
        for (int refusals : new int[] {1, 3, 1000}) {
            jobs.calls.clear();
            jobs.refuseCancels = refusals;
            Run run = run("job-1");
            run.getMetadata().setUid("uid-" + refusals);
            run.getSpec().setTimeout("0s");
            for (int step = 0; step < 200 && run.getStatus().getPhase() == RunPhase.RUNNING; step++) {
                reconcile(run);
                if (!written.isEmpty()) {
                    run.getStatus().setPhase(last().getPhase());
                }
                if (run.getStatus().getPhase() == RunPhase.RUNNING && jobs.refuseCancels > 0) {
                    assertThat(last().getConditions())
                            .anySatisfy(
                                    c -> assertThat(c.getMessage())
                                            .startsWith(
                                                    "cancelling job job-1 on http://jobs:9090: the job service answered HTTP 503"));
                }
                later(Duration.ofSeconds(20));
            }
            long cancels =
                    jobs.calls.stream().filter(c -> c.startsWith("cancel")).count();
            assertThat(last().getPhase()).isEqualTo(RunPhase.FAILED);
            if (refusals < 1000) {
                assertThat(cancels).as("tried until taken").isEqualTo(refusals + 1);
                assertThat(last().getMessage()).isEqualTo("the job did not finish within 0s; the job was cancelled");
            } else {
                assertThat(cancels).as("bounded by the cleanup timeout").isBetween(5L, 20L);
                assertThat(last().getMessage())
                        .startsWith("the job did not finish within 0s; cancelling the job failed: ");
            }
        }
    }

    @Test
    void aRunWhoseSpecServerIsEditedWhileItsJobRunsEndsWhenTheJobEnds() {
        for (String edit : List.of("http://other:9090", "http://not-allowed:1", "::not a url", "http://jobs:9091")) {
            jobs.calls.clear();
            jobs.answer = new RemoteJob("job-1", "running", "", false);
            Run run = run("job-1");
            run.getMetadata().setUid("uid-" + edit.length());
            run.getSpec().setServer(edit);
            run.getMetadata().setGeneration(2L);
            reconcile(run);
            assertThat(last().getPhase()).isEqualTo(RunPhase.RUNNING);
            jobs.answer = new RemoteJob("job-1", "succeeded", "done", false);
            later(Duration.ofSeconds(5));
            reconcile(run);
            assertThat(last().getPhase()).as(edit).isEqualTo(RunPhase.SUCCEEDED);
            assertThat(jobs.calls).as(edit).allMatch(c -> c.endsWith("on http://jobs:9090"));
        }
    }

    @Test
    void aTimeoutIsReportedAsPreciselyAsItWasGiven() {
        Map<String, String> cases = Map.of("2500ms", "2.5s", "100ms", "100ms", "90s", "1m30s", "3600001ms", "1h0.001s");
        cases.forEach((timeout, text) -> {
            Run run = run("job-1");
            run.getMetadata().setUid("uid-" + timeout);
            run.getSpec().setTimeout(timeout);
            clock.advance(Duration.ofHours(2));
            reconcile(run);
            assertThat(last().getMessage())
                    .isEqualTo("the job did not finish within " + text + "; the job was cancelled");
        });
    }

    /** Time passes, and what was scheduled for it happens. */
    private void later(Duration by) {
        clock.advance(by);
        List<Runnable> due = new ArrayList<>(timed);
        timed.clear();
        due.forEach(Runnable::run);
    }

    private UpdateControl<Run> reconcile(Run run) {
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

    /** The start held answers with job {@code id}. */
    private void startAnswered(String id) {
        JobServerUrl server = JobServerUrl.parse("http://jobs:9090");
        ((CompletableFuture<JobService.Start>) jobs.held.get(0)).complete(new JobService.Start(id, server));
    }

    private Run run(String remoteId) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("r")
                .withNamespace("ns")
                .withUid("uid-r")
                .withGeneration(1L)
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .build());
        run.setSpec(new RunSpec());
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName("build");
        if (remoteId != null) {
            run.setStatus(new RunStatus());
            run.getStatus().setRemoteId(remoteId);
            run.getStatus().setServer("http://jobs:9090");
            run.getStatus().setPhase(RunPhase.RUNNING);
            run.getStatus().setStartTime(clock.instant().toString());
        }
        return run;
    }

    /** A job service that answers at once, or, when {@link #hold} is set, when the test completes its answer. */
    private static final class FakeJobs implements JobService {
        final List<String> calls = new ArrayList<>();
        final List<CompletableFuture<?>> held = new ArrayList<>();
        RemoteJob answer = new RemoteJob("job-1", "running", "", false);
        RemoteJobException failure;
        /** Answers every other call with this failure. */
        RemoteJobException flapping;
        /** Answers polls (only) with this failure. */
        RemoteJobException pollFailure;
        /** Cancels still to refuse with a 503. */
        int refuseCancels;

        int answered;
        boolean hold;

        /** The address a start says it connected to, if any. */
        InetAddress connectedTo;

        @Override
        public CompletableFuture<JobService.Start> start(
                JobServerUrl server, String name, Map<String, String> params, String key) {
            calls.add("start " + name + " " + key + " on " + on(server));
            return answer(new JobService.Start("job-1", connectedTo == null ? server : server.pinnedTo(connectedTo)));
        }

        @Override
        public CompletableFuture<RemoteJob> get(JobServerUrl server, String id, int tailBytes) {
            calls.add("get " + id + " on " + on(server));
            return pollFailure != null ? CompletableFuture.failedFuture(pollFailure) : answer(answer);
        }

        @Override
        public CompletableFuture<Void> cancel(JobServerUrl server, String id) {
            calls.add("cancel " + id + " on " + on(server));
            if (refuseCancels > 0) {
                refuseCancels--;
                return CompletableFuture.failedFuture(new RemoteJobException(
                        RemoteJobException.Kind.SERVER_ERROR, "the job service answered HTTP 503: busy", null));
            }
            return answer(null);
        }

        private static String on(JobServerUrl server) {
            return server
                    + server.pinned().map(a -> " at " + JobServerUrl.literal(a)).orElse("");
        }

        private <T> CompletableFuture<T> answer(T value) {
            CompletableFuture<T> future = new CompletableFuture<>();
            if (hold) {
                held.add(future);
            } else if (flapping != null && answered++ % 2 == 1) {
                future.completeExceptionally(flapping);
            } else if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(value);
            }
            return future;
        }
    }
}
