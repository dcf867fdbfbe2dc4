package io.kyma.operator.manager.guard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.status.ApiFailure;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.micrometer.core.instrument.Timer;

/**
 * What happens around every reconcile of one controller, whatever the controller:
 * <ul>
 * <li>a resource that is backing off after a failure is not reconciled before its time, however many events
 * arrive meanwhile (JOSDK 5.2.3 would resubmit it at once);</li>
 * <li>a failure ({@link ApiFailure#classify}) or a reconcile past the timeout is retried through the shared
 * {@link RequeueLimiter}'s capped backoff, unless only a spec edit can fix it;</li>
 * <li>no resource waits longer than the sync period for its next reconcile;</li>
 * <li>the controller-runtime reconcile metrics are kept.</li>
 * </ul>
 * A reconcile past its timeout is interrupted once ({@link TimeoutAlarm}); it still runs to its end on its own thread,
 * so the same resource is never reconciled twice at a time.
 */
public final class ReconcileGuard {
    private static final Logger LOG = LoggerFactory.getLogger(ReconcileGuard.class);

    private final String controller;
    private final RequeueLimiter limiter;
    private final GlobalGate gate;
    private final Duration timeout;
    private final Duration syncPeriod;
    private final Clock clock;
    private final ScheduledExecutorService watchdog;
    private final OperatorMetrics metrics;
    private final LateReconciles late;
    private final Timer reconcileTime;
    private final AtomicInteger activeWorkers;

    /** How one guarded reconcile ended. */
    public enum Outcome {
        /** Not run: the resource is still backing off; reschedule after {@link Result#delay()}. */
        DEFERRED,
        SUCCEEDED,
        /** Failed or timed out; reschedule after {@link Result#delay()}. */
        FAILED
    }

    public record Result<T>(Outcome outcome, T value, Duration delay) {}

    /** The work of one reconcile. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws Exception;
    }

    /** @param gate the gate of {@code --max-reconcile-rate}, passed after any backoff */
    public ReconcileGuard(
            String controller,
            RequeueLimiter limiter,
            GlobalGate gate,
            Duration timeout,
            Duration syncPeriod,
            Clock clock,
            ScheduledExecutorService watchdog,
            OperatorMetrics metrics,
            LateReconciles late) {
        this.controller = controller;
        this.limiter = limiter;
        this.gate = gate;
        this.timeout = timeout;
        this.syncPeriod = syncPeriod;
        this.clock = clock;
        this.watchdog = watchdog;
        this.metrics = metrics;
        this.late = late;
        this.reconcileTime = metrics.reconcileTime(controller);
        this.activeWorkers = metrics.activeWorkers(controller);
    }

    public <T> Result<T> run(HasMetadata resource, Work<T> work) {
        late.came(controller, resource);
        // By UID, so that an object created again under the same name starts afresh; and the epoch, so that a new
        // generation or a deletion is tried at once rather than after the backoff its earlier failures earned.
        String uid = resource.getMetadata().getUid();
        String key = controller + "/" + (uid != null ? uid : name(resource));
        String epoch = resource.getMetadata().getGeneration() + (resource.isMarkedForDeletion() ? "/deleting" : "");
        // retries wait for the shared bucket in a line per namespace
        String flow = resource.getMetadata().getNamespace();
        Optional<Duration> blocked = limiter.blockedFor(key, epoch).or(() -> gate.admit(key, flow));
        if (blocked.isPresent()) {
            return new Result<>(Outcome.DEFERRED, null, blocked.get());
        }
        Instant started = clock.instant();
        TimeoutAlarm alarm = TimeoutAlarm.set(
                watchdog,
                timeout,
                () -> LOG.warn(
                        "{} {}: reconcile still running after {}; interrupting it",
                        resource.getKind(),
                        name(resource),
                        GoDuration.format(timeout)));
        activeWorkers.incrementAndGet();
        T value = null;
        Throwable failure = null;
        ReconcileLog.open(controller);
        try {
            value = work.run();
        } catch (OutOfMemoryError e) {
            throw e; // the Deployment's JVM exits on it; nothing here could go on safely
        } catch (Exception | Error e) {
            // An Error too (a stack overflow, a class that failed to load): JOSDK 5.2.3 catches only exceptions, and
            // one that escaped would leave the resource marked as under processing, never reconciled again.
            failure = e;
        } finally {
            ReconcileLog.close();
            alarm.finished();
            activeWorkers.decrementAndGet();
        }
        Duration took = Duration.between(started, clock.instant());
        reconcileTime.record(took);
        if (failure == null && took.compareTo(timeout) > 0) {
            failure = new ReconcileTimeoutException(took, timeout);
        }
        if (failure != null) {
            return failed(resource, key, epoch, flow, failure);
        }
        limiter.succeeded(key);
        return new Result<>(Outcome.SUCCEEDED, value, null);
    }

    /**
     * Decides by {@link ApiFailure#classify}: only a failure a spec edit alone can fix waits for the next change;
     * everything else is retried through the limiter's backoff, which doubles up to its cap.
     */
    private <T> Result<T> failed(HasMetadata resource, String key, String epoch, String flow, Throwable failure) {
        FailureClass kind = ApiFailure.classify(failure);
        if (kind == FailureClass.SPEC) {
            // Bad request, invalid, too large: it fails again however often it is sent. The controllers say so in
            // status; here it is logged, counted, and left until the next change or sync.
            limiter.succeeded(key);
            metrics.reconcileErrors(controller).increment();
            metrics.terminalReconcileErrors(controller).increment();
            metrics.reconciles(controller, "error").increment();
            LOG.error(
                    "{} {}: reconcile failed and will fail again until the spec changes, not retrying before the next"
                            + " change or {}: {}",
                    resource.getKind(),
                    name(resource),
                    GoDuration.format(syncPeriod),
                    ApiFailure.describe(failure));
            return new Result<>(Outcome.FAILED, null, syncPeriod);
        }
        Duration delay = limiter.failed(key, epoch, flow);
        metrics.queueRetries(controller).increment();
        if (kind == FailureClass.CONFLICT) {
            // The reconcile worked on a stale copy and the API server refused its write: the ordinary
            // optimistic-concurrency outcome, retried on fresh data like controller-runtime's requeue, not an error.
            metrics.reconcileConflicts(controller).increment();
            metrics.reconciles(controller, "requeue").increment();
            LOG.info(
                    "{} {}: write conflict on resourceVersion {}, retrying on fresh data in {}: {}",
                    resource.getKind(),
                    name(resource),
                    resource.getMetadata().getResourceVersion(),
                    GoDuration.format(delay),
                    failure.getMessage());
        } else if (kind == FailureClass.GONE) {
            // Deleted meanwhile (the retry finds nothing once the watch saw it), or not served yet: a kube-apiserver
            // that has just started answers 404 for custom resources until it has loaded their CRDs.
            metrics.reconciles(controller, "requeue").increment();
            LOG.info(
                    "{} {}: not found or gone (deleted, or not served yet after an API server start), retrying in {}",
                    resource.getKind(),
                    name(resource),
                    GoDuration.format(delay));
        } else {
            // A status the operator computed, refused as malformed, is the operator's or the API server's defect, not
            // the tenant's: retried like any failure, never parked, and told as loudly as a crash.
            boolean refused = ApiFailure.refusedStatusWrite(failure);
            metrics.reconcileErrors(controller).increment();
            metrics.reconciles(controller, "error").increment();
            if (refused) {
                metrics.statusWriteRefusals(controller).increment();
            }
            LOG.atLevel(refused ? Level.ERROR : Level.WARN)
                    .setCause(failure)
                    .log(
                            "{} {}: {} (attempt {}), retrying in {}: {}",
                            resource.getKind(),
                            name(resource),
                            refused
                                    ? "the API server refused the operator's own status write, a defect of the"
                                            + " operator or the API server, not of the spec"
                                    : "reconcile failed",
                            limiter.failures(key),
                            GoDuration.format(delay),
                            ApiFailure.describe(failure));
        }
        return new Result<>(Outcome.FAILED, null, delay);
    }

    /**
     * When to reconcile {@code resource} again: as asked, never later than the sync period; a reconcile sooner than
     * that is awaited, in case JOSDK loses the timer ({@link LateReconciles}), so that nothing is kept for long of an
     * object deleted meanwhile.
     */
    /** The clean-up let {@code resource} go: an object created again under its name is looked after. */
    public void released(HasMetadata resource) {
        late.released(controller, resource);
    }

    public Duration again(HasMetadata resource, Optional<Duration> asked) {
        Optional<Duration> sooner = asked.filter(d -> d.compareTo(syncPeriod) < 0);
        sooner.ifPresentOrElse(d -> late.asked(controller, resource, d), () -> late.came(controller, resource));
        return sooner.orElse(syncPeriod);
    }

    /** Counts a finished reconcile by its result, as controller-runtime does. */
    public void countSuccess(boolean requeueAfter) {
        metrics.reconciles(controller, requeueAfter ? "requeue_after" : "success")
                .increment();
    }

    private static String name(HasMetadata resource) {
        return resource.getMetadata().getNamespace() + "/"
                + resource.getMetadata().getName();
    }

    /** A reconcile that took longer than the configured timeout. */
    public static final class ReconcileTimeoutException extends Exception {
        ReconcileTimeoutException(Duration took, Duration timeout) {
            super("reconcile took " + GoDuration.format(took) + ", longer than the timeout of "
                    + GoDuration.format(timeout));
        }
    }
}
