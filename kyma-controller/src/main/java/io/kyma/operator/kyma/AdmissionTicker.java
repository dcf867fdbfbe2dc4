package io.kyma.operator.kyma;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.common.DaemonThreads;

/**
 * Looks at the admission line a few times a second and reconciles the Kymas whose turn has come (or whose place in
 * line should be told again), so that waiting Kymas need no timers of their own.
 */
final class AdmissionTicker extends AbstractEventSource<Void, Kyma> {
    static final Duration PERIOD = Duration.ofMillis(100);
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionTicker.class);

    private final Admission admission;
    private ScheduledExecutorService ticks;

    AdmissionTicker(Admission admission) {
        super(Void.class, "admission");
        this.admission = admission;
    }

    @Override
    public synchronized void start() {
        super.start();
        ticks = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("kyma-admission"));
        ticks.scheduleWithFixedDelay(this::tick, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (ticks != null) {
            ticks.shutdownNow();
        }
        super.stop();
    }

    void tick() {
        try {
            for (ResourceID kyma : admission.due()) {
                getEventHandler().handleEvent(new Event(kyma));
            }
        } catch (RuntimeException e) {
            // a failed tick must not end the schedule; the next one looks again
            LOG.warn("admission tick failed", e);
        }
    }

    @Override
    public Set<Void> getSecondaryResources(Kyma primary) {
        return Set.of();
    }
}
