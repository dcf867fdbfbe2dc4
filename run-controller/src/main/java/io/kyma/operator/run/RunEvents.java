package io.kyma.operator.run;

import java.util.Optional;

import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.events.Notice;
import io.kyma.operator.common.status.Conditions;

/** The events a status change of a Run tells: its job started, succeeded, failed or was cancelled. */
final class RunEvents {
    private RunEvents() {}

    static Optional<Notice> of(RunStatus before, RunStatus after) {
        RunPhase was = before == null ? null : before.getPhase();
        RunPhase now = after.getPhase();
        if (now == null || now == was || (now == RunPhase.RUNNING && was == RunPhase.UNKNOWN)) {
            return Optional.empty();
        }
        if (now == RunPhase.RUNNING) {
            return Optional.of(
                    Notice.normal("JobStarted", "job " + after.getRemoteId() + " started on " + after.getServer()));
        }
        var outcome = Conditions.find(after.getConditions(), RunStatuses.SUCCEEDED);
        String reason =
                outcome.map(c -> c.getReason()).orElse(now == RunPhase.SUCCEEDED ? "JobSucceeded" : "JobFailed");
        String message = outcome.map(c -> c.getMessage()).orElse(after.getMessage());
        return Optional.of(
                now == RunPhase.SUCCEEDED ? Notice.normal(reason, message) : Notice.warning(reason, message));
    }
}
