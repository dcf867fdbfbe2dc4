package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Run;
import io.kyma.operator.testing.MutableClock;

/** How calls to job services wait, start and answer: the limits, the turns between namespaces, what is kept. */
class JobCallsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<String> started = new ArrayList<>();
    private final List<CompletableFuture<Object>> open = new ArrayList<>();
    private final List<ResourceID> answered = new ArrayList<>();
    private final List<Runnable> timed = new ArrayList<>();
    private final JobCalls.Timer timer = (delay, task) -> {
        timed.add(task);
        return () -> timed.remove(task);
    };

    private JobCalls calls(int inFlight, int perServer) {
        JobCalls calls = new JobCalls(
                inFlight, perServer, Long.MAX_VALUE, 0, Duration.ofSeconds(1), Duration.ofSeconds(60), clock, timer);
        calls.onAnswer(answered::add);
        return calls;
    }

    private boolean ask(JobCalls calls, Run run, String server) {
        String name = run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
        return calls.ask(
                run,
                JobCalls.Kind.POLL,
                JobServerUrl.parse(server),
                () -> {
                    started.add(name);
                    CompletableFuture<Object> answer = new CompletableFuture<>();
                    open.add(answer);
                    return answer;
                },
                Duration.ZERO,
                0);
    }

    @Test
    void startBodiesCountInTheByteBudgetAndABigOneIsNotPassedBySmallerOnes() {
        // 10 slots, but bytes for 3 calls of 100 (what each holds of its answer) beside one another
        JobCalls calls = new JobCalls(10, 10, 300, 100, Duration.ofSeconds(1), Duration.ofSeconds(60), clock, timer);
        ask(calls, run("a", "poll-1"), "http://jobs:9090");
        ask(calls, run("a", "poll-2"), "http://jobs:9090");
        calls.ask(
                run("b", "big-start"),
                JobCalls.Kind.START,
                JobServerUrl.parse("http://jobs:9090"),
                () -> {
                    started.add("b/big-start");
                    CompletableFuture<Object> answer = new CompletableFuture<>();
                    open.add(answer);
                    return answer;
                },
                Duration.ZERO,
                150);
        ask(calls, run("c", "poll-3"), "http://jobs:9090");
        assertThat(started)
                .as("250 more would not fit beside 200, and the poll behind it waits too")
                .containsExactly("a/poll-1", "a/poll-2");
        open.get(0).complete("answer");
        assertThat(started).as("still 350 with it").containsExactly("a/poll-1", "a/poll-2");
        open.get(1).complete("answer");
        assertThat(started).containsExactly("a/poll-1", "a/poll-2", "b/big-start");
        open.get(2).complete(new JobService.Start("id", JobServerUrl.parse("http://jobs:9090")));
        assertThat(started).last().isEqualTo("c/poll-3");
    }

    @Test
    void aTurnLooksOnlySoFarIntoALineOfCallsForAFullServer() {
        JobCalls calls = calls(10, 1);
        for (int i = 0; i < 100; i++) {
            ask(calls, run("a", "slow-" + i), "http://slow:9090");
        }
        ask(calls, run("a", "near"), "http://other:9090"); // behind 99 waiting for the slow server
        ask(calls, run("b", "other"), "http://other:9090");
        assertThat(started)
                .as("a's call beyond the look-ahead waits; b's line is looked at on its own")
                .containsExactly("a/slow-0", "b/other");
        JobCalls few = calls(10, 1);
        started.clear();
        for (int i = 0; i < 10; i++) {
            ask(few, run("c", "slow-" + i), "http://slow:9090");
        }
        ask(few, run("c", "near"), "http://other:9090");
        assertThat(started).as("within the look-ahead").containsExactly("c/slow-0", "c/near");
    }

    @Test
    void noMoreCallsRunThanTheLimitAndTheNextStartsWhenOneEnds() {
        JobCalls calls = calls(2, 10);
        for (int i = 0; i < 5; i++) {
            ask(calls, run("a", "r" + i), "http://jobs:9090");
        }
        assertThat(started).containsExactly("a/r0", "a/r1");
        assertThat(calls.inFlight()).isEqualTo(2);
        assertThat(calls.waitingCalls()).isEqualTo(3);
        open.get(0).complete("answer");
        assertThat(started).containsExactly("a/r0", "a/r1", "a/r2");
        assertThat(answered).containsExactly(new ResourceID("r0", "a"));
    }

    @Test
    void aSlowServerHoldsBackOnlyItsOwnCalls() {
        JobCalls calls = calls(4, 1);
        ask(calls, run("a", "slow1"), "http://slow:9090");
        ask(calls, run("a", "slow2"), "http://slow:9090");
        ask(calls, run("a", "fast"), "http://fast:9090");
        assertThat(started).containsExactly("a/slow1", "a/fast");
        assertThat(calls.waitingCalls()).isEqualTo(1);
    }

    @Test
    void waitingCallsAreServedANamespaceAtATime() {
        JobCalls calls = calls(1, 10);
        ask(calls, run("busy", "first"), "http://jobs:9090");
        for (int i = 0; i < 100; i++) {
            ask(calls, run("busy", "r" + i), "http://jobs:9090");
        }
        ask(calls, run("quiet", "one"), "http://jobs:9090");
        open.get(0).complete("answer");
        open.get(1).complete("answer");
        assertThat(started)
                .as("the quiet namespace's call goes second, not after a hundred")
                .containsExactly("busy/first", "busy/r0", "quiet/one");
    }

    @Test
    void aNamespaceAtItsShareOfTheSlotsWaitsWhileAnotherBelowItsShareWaits() {
        JobCalls calls = calls(4, 10);
        for (int i = 0; i < 4; i++) {
            ask(calls, run("slow", "held" + i), "http://s" + i + ":9090"); // its servers answer late
        }
        for (int i = 0; i < 10; i++) {
            ask(calls, run("slow", "more" + i), "http://t" + i + ":9090");
        }
        ask(calls, run("quiet", "a"), "http://q:9090");
        ask(calls, run("quiet", "b"), "http://q:9090");
        for (int i = 0; i < 3; i++) {
            open.get(i).complete("answer"); // a slot comes free
        }
        // 4 slots, 2 namespaces: a share of 2 each; the slow namespace held more, so the quiet one's calls go first,
        // and once it waits no more, the slow namespace's turn comes again
        assertThat(started.subList(4, started.size())).containsExactly("quiet/a", "quiet/b", "slow/more0");
    }

    @Test
    void aNamespaceAloneMayUseEverySlot() {
        JobCalls calls = calls(3, 10);
        for (int i = 0; i < 5; i++) {
            ask(calls, run("only", "r" + i), "http://s" + i + ":9090");
        }
        assertThat(calls.inFlight()).isEqualTo(3);
    }

    @Test
    void aRunHasOneCallAtATimeAndItsAnswerIsTakenOnce() {
        JobCalls calls = calls(4, 4);
        Run run = run("a", "r");
        assertThat(ask(calls, run, "http://jobs:9090")).isTrue();
        assertThat(ask(calls, run, "http://jobs:9090")).isFalse();
        assertThat(calls.busy(run)).isTrue();
        assertThat(calls.take(run, JobCalls.Kind.POLL)).isEmpty();
        open.get(0).completeExceptionally(new RemoteJobException(RemoteJobException.Kind.SERVER_ERROR, "503", null));
        assertThat(calls.take(run, JobCalls.Kind.START))
                .as("an answer of another kind is not this one's")
                .isEmpty();
        assertThat(calls.take(run, JobCalls.Kind.POLL))
                .as("nor is it lost by the question")
                .isPresent();
        assertThat(calls.take(run, JobCalls.Kind.POLL)).as("taken once").isEmpty();
        ask(calls, run, "http://jobs:9090");
        open.get(1).completeExceptionally(new IllegalStateException("a bug"));
        assertThat(calls.take(run, JobCalls.Kind.POLL)).hasValueSatisfying(done -> {
            assertThat(done.failed()).isTrue();
            assertThat(done.failure().kind()).isEqualTo(RemoteJobException.Kind.UNREACHABLE);
        });
    }

    @Test
    void aForgottenRunIsNotCalledAndItsLateAnswerIsNotHeard() {
        JobCalls calls = calls(1, 1);
        Run first = run("a", "first");
        Run second = run("a", "second");
        ask(calls, first, "http://jobs:9090");
        ask(calls, second, "http://jobs:9090");
        calls.forget(JobCalls.uid(second));
        calls.forget(JobCalls.uid(first));
        open.get(0).complete("late");
        assertThat(started).containsExactly("a/first");
        assertThat(answered).isEmpty();
        assertThat(calls.tracked()).isZero();
        assertThat(calls.inFlight()).isZero();
        assertThat(calls.waitingCalls()).isZero();
    }

    @Test
    void theAnswerBudgetBoundsTheCallsInFlight() {
        long mib = 1 << 20;
        assertThat(JobCalls.inFlightFor(18 * mib, 256 << 10, 32))
                .as("18 MiB / (3 x 256 KiB + 64 KiB of headers)")
                .isEqualTo(22);
        assertThat(JobCalls.inFlightFor(1024 * mib, 256 << 10, 32)).isEqualTo(32);
        assertThat(JobCalls.inFlightFor(mib, 1 << 30, 32)).as("never none").isEqualTo(1);
    }

    @Test
    void aScheduledCallGetsInLineAtItsTimeAndACancelTakesItsPlace() {
        JobCalls calls = calls(4, 4);
        Run run = run("a", "r");
        calls.ask(
                run,
                JobCalls.Kind.POLL,
                JobServerUrl.parse("http://jobs:9090"),
                () -> {
                    started.add("poll");
                    return new CompletableFuture<>();
                },
                Duration.ofSeconds(5),
                0);
        assertThat(started).isEmpty();
        assertThat(calls.busy(run)).isTrue();
        assertThat(ask(calls, run, "http://jobs:9090"))
                .as("another poll waits for the scheduled one")
                .isFalse();
        calls.ask(
                run,
                JobCalls.Kind.CANCEL,
                JobServerUrl.parse("http://jobs:9090"),
                () -> {
                    started.add("cancel");
                    return CompletableFuture.completedFuture(null);
                },
                Duration.ZERO,
                0);
        timed.forEach(Runnable::run);
        assertThat(started).containsExactly("cancel");
        assertThat(calls.take(run, JobCalls.Kind.CANCEL)).isPresent();
    }

    private static Run run(String namespace, String name) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withNamespace(namespace)
                .withName(name)
                .withUid(namespace + "-" + name)
                .build());
        return run;
    }
}
