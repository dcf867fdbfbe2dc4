package io.kyma.operator.run;

import java.util.Objects;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.cache.LeanCache;

/**
 * Runs as the informer cache keeps them. An ended Run keeps no log: the operator never reads it again (an ended Run's
 * reconcile stops at its phase), the API server keeps it for users, and otherwise every Run a tenant ever ran would
 * hold up to 32 KiB of the operator's heap for as long as it exists.
 * <p>
 * Nor does a Run keep its job's parameters once they can no longer be sent: once its job was started, or once it
 * ended with its spec observed (a Run that failed before starting is planned again only when its spec changes, and
 * the new spec comes with its parameters). The parameters are up to 64 values of 4,096 characters, and their names
 * cannot be bounded by the schema on every API server version; a tenant's Runs that failed on them would otherwise
 * keep them in the operator's heap for as long as they exist.
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
        boolean ended = status.getPhase() != null && status.getPhase().ended();
        if (ended) {
            status.setLogs(null);
        }
        boolean observed =
                Objects.equals(status.getObservedGeneration(), run.getMetadata().getGeneration());
        if ((status.getRemoteId() != null || ended && observed)
                && run.getSpec() != null
                && run.getSpec().getJob() != null) {
            run.getSpec().getJob().setParams(null);
        }
        status.setServer(LeanCache.share(status.getServer()));
    }
}
