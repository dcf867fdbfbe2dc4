package io.kyma.operator.run;

import java.util.Set;

import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.kyma.operator.api.Run;

/** Starts a Run's reconcile when an answer of its job service is in ({@link JobCalls}). */
final class JobCallEvents extends AbstractEventSource<Void, Run> {
    static final String NAME = "job-service-answers";

    JobCallEvents() {
        super(Void.class, NAME);
    }

    void answered(ResourceID run) {
        if (isRunning()) {
            getEventHandler().handleEvent(new Event(run));
        }
    }

    @Override
    public Set<Void> getSecondaryResources(Run primary) {
        return Set.of();
    }
}
