package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Run;
import io.kyma.operator.run.JobCalls.Done;
import io.kyma.operator.run.JobCalls.Kind;
import io.kyma.operator.testing.MutableClock;

/** What the Run controller remembers of a Run between reconciles: backoff, bad answers, the start, and for how long. */
class RunMemoryTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    /** The UIDs the memory forgot for want of reconciles. */
    private final List<String> gone = new ArrayList<>();

    private final RunMemory memory = new RunMemory(clock, gone::add);
    private final IntFunction<Duration> backoff = new JobCalls(
            4, 4, Long.MAX_VALUE, 0, Duration.ofSeconds(1), Duration.ofSeconds(60), clock, (d, t) -> () -> {})::backoff;

    private Done<Object> failed(RemoteJobException.Kind kind) {
        return new Done<>(null, new RemoteJobException(kind, "x", null), clock.instant());
    }

    @Test
    void failuresInARowDoubleTheWaitUpToTheCapAndASuccessEndsIt() {
        RunMemory.Of run = memory.of(run("r"));
        long[] expected = {1, 2, 4, 8, 16, 32, 60, 60};
        for (long seconds : expected) {
            run.heard(Kind.POLL, failed(RemoteJobException.Kind.UNREACHABLE), backoff);
            assertThat(run.retryDelay(clock.instant())).isEqualTo(Duration.ofSeconds(seconds));
        }
        clock.advance(Duration.ofSeconds(59));
        assertThat(run.retryDelay(clock.instant()))
                .as("counted from the failure")
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(run.lastPoll)
                .as("a failed poll is a poll")
                .isEqualTo(clock.instant().minusSeconds(59));
        run.heard(Kind.POLL, new Done<>("ok", null, clock.instant()), backoff);
        assertThat(run.retryDelay(clock.instant())).isZero();
    }

    @Test
    void badAnswersCountInARowAndAnyUsableAnswerClearsThem() {
        RunMemory.Of run = memory.of(run("r"));
        for (RemoteJobException.Kind other : RemoteJobException.Kind.values()) {
            run.heard(Kind.POLL, failed(RemoteJobException.Kind.BAD_ANSWER), backoff);
            run.heard(Kind.POLL, failed(other), backoff);
            assertThat(run.badAnswers)
                    .as("after " + other)
                    .isEqualTo(other == RemoteJobException.Kind.BAD_ANSWER ? 2 : 1);
            run.heard(Kind.POLL, new Done<>("ok", null, clock.instant()), backoff);
            assertThat(run.badAnswers).isZero();
        }
    }

    @Test
    void aStartThatAnsweredIsKeptAndAFailedOneIsNot() {
        RunMemory.Of run = memory.of(run("r"));
        run.heard(Kind.START, failed(RemoteJobException.Kind.SERVER_ERROR), backoff);
        assertThat(run.started).isNull();
        JobService.Start start = new JobService.Start("job-1", JobServerUrl.parse("http://jobs:9090"));
        run.heard(Kind.START, new Done<>(start, null, clock.instant()), backoff);
        assertThat(run.started.value()).isEqualTo(start);
        assertThat(memory.of(run("r")).started)
                .as("the same Run, the same memory")
                .isNotNull();
    }

    @Test
    void aRunNobodyReconcilesForAnHourIsForgottenAndItsCallsAreTold() {
        memory.of(run("old")).lastWrite = clock.instant();
        clock.advance(RunMemory.IDLE.plus(Duration.ofSeconds(1)));
        for (int i = 0; i < 1023; i++) {
            memory.of(run("r" + i));
        }
        assertThat(memory.size()).isEqualTo(1023);
        assertThat(gone).containsExactly(JobCalls.uid(run("old")));
        assertThat(memory.of(run("old")).lastWrite).isNull();
        memory.forget(run("old"));
        assertThat(memory.size()).isEqualTo(1023);
    }

    private static Run run(String name) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withNamespace("a")
                .withName(name)
                .withUid("uid-" + name)
                .build());
        return run;
    }
}
