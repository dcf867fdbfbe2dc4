package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.common.events.Notice;

class RunEventsTest {
    private final RunStatuses statuses =
            new RunStatuses(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

    private static Run run(RunStatus status) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("r")
                .withNamespace("ns")
                .withGeneration(1L)
                .build());
        run.setStatus(status);
        return run;
    }

    @Test
    void aStartedJobThenItsOutcomeAreTold() {
        RunStatus started = statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090"));
        assertThat(RunStatuses.notice(null, started))
                .contains(Notice.normal("JobStarted", "job job-1 started on http://jobs:9090"));
        Run running = run(started);
        RunStatus done = statuses.polled(running, new RemoteJob("job-1", "succeeded", "", false), Optional.empty());
        assertThat(RunStatuses.notice(started, done)).hasValueSatisfying(n -> {
            assertThat(n.type()).isEqualTo(Events.Type.NORMAL);
            assertThat(n.reason()).isEqualTo("JobSucceeded");
        });
        RunStatus cancelled =
                statuses.polled(running, new RemoteJob("job-1", "cancelled", "", false), Optional.empty());
        assertThat(RunStatuses.notice(started, cancelled)).hasValueSatisfying(n -> {
            assertThat(n.type()).isEqualTo(Events.Type.WARNING);
            assertThat(n.reason()).isEqualTo("JobCancelled");
        });
    }

    @Test
    void pollsOfARunningJobAndALegacyPhaseTellNothing() {
        RunStatus started = statuses.started(run(null), "job-1", JobServerUrl.parse("http://jobs:9090"));
        RunStatus polled =
                statuses.polled(run(started), new RemoteJob("job-1", "running", "a\n", false), Optional.empty());
        assertThat(RunStatuses.notice(started, polled)).isEmpty();
        RunStatus legacy = new RunStatus();
        legacy.setPhase(RunPhase.UNKNOWN);
        assertThat(RunStatuses.notice(legacy, started))
                .as("an older operator's started Run")
                .isEmpty();
    }
}
