package io.kyma.operator.run;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.LeanCache;

/**
 * Runs as the informer cache keeps them. An ended Run keeps no log: the operator never reads it again (an ended Run's
 * reconcile stops at its phase), the API server keeps it for users, and otherwise every Run a tenant ever ran would
 * hold up to 32 KiB of the operator's heap for as long as it exists.
 */
public final class RunForm implements LeanCache.Form<Run> {
    @Override
    public Run empty() {
        return new Run();
    }

    @Override
    public void shareStrings(Run run) {
        RunStatus status = run.getStatus();
        if (status == null) {
            return;
        }
        if (status.getPhase() == RunPhase.SUCCEEDED || status.getPhase() == RunPhase.FAILED) {
            status.setLogs(null);
        }
        status.setServer(LeanCache.share(status.getServer()));
    }
}
