package io.kyma.operator.manager.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.shard.ShardDrain;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** What the wrapped reconciler does with an object that is, or is not, being handed to another shard. */
class GuardedReconcilerTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    private final LateReconciles late = new LateReconciles(clock);
    private final ReconcileGuard guard = new ReconcileGuard(
            "test",
            new RequeueLimiter(
                    Duration.ofMillis(500), Duration.ofSeconds(60), new FairTokenQueue(10, 100, clock), clock, d -> {}),
            GlobalGate.OPEN,
            Duration.ofMinutes(1),
            Duration.ofMinutes(10),
            clock,
            watchdog,
            new OperatorMetrics(),
            late);
    private final ConfigMap resource = new ConfigMapBuilder()
            .withNewMetadata()
            .withName("r")
            .withNamespace("ns")
            .endMetadata()
            .build();
    private final Context<ConfigMap> context = new FakeContext<>(resource, List.of());
    private final Counting delegate = new Counting();

    @AfterEach
    void stopWatchdog() throws Exception {
        watchdog.shutdownNow();
    }

    @Test
    void anObjectNotBeingHandedOverIsReconciled() throws Exception {
        UpdateControl<ConfigMap> control = GuardedReconciler.wrap(delegate, guard, ShardDrain.Responder.NONE)
                .reconcile(resource, context);

        assertThat(delegate.reconciles.get()).isEqualTo(1);
        assertThat(control.getScheduleDelay()).contains(Duration.ofSeconds(5).toMillis());
        assertThat(late.awaited()).as("the reschedule it returned is watched").isEqualTo(1);
        clock.advance(Duration.ofSeconds(5).plus(LateReconciles.GRACE).plusMillis(1));
        assertThat(late.overdue())
                .extracting(LateReconciles.Due::uid)
                .containsExactly(resource.getMetadata().getUid());
    }

    @Test
    void aReplicaThatHasAnsweredADrainDoesNothingMore() throws Exception {
        UpdateControl<ConfigMap> control = GuardedReconciler.wrap(
                        delegate, guard, (r, client) -> ShardDrain.Answer.STOPPED)
                .reconcile(resource, context);

        assertThat(delegate.reconciles.get())
                .as("the other shard's replica takes it from here")
                .isZero();
        assertThat(control.getScheduleDelay()).isEmpty();
        assertThat(control.isNoUpdate()).isTrue();
        assertThat(late.awaited()).as("nothing asked for, nothing awaited").isZero();
    }

    @Test
    void anAnswerThatCouldNotBeWrittenIsTriedAgainShortlyWithoutReconciling() throws Exception {
        UpdateControl<ConfigMap> control = GuardedReconciler.wrap(
                        delegate, guard, (r, client) -> ShardDrain.Answer.RETRY)
                .reconcile(resource, context);

        assertThat(delegate.reconciles.get()).isZero();
        assertThat(control.getScheduleDelay()).contains(GuardedReconciler.DRAIN_RETRY.toMillis());
        assertThat(late.awaited()).isEqualTo(1);
    }

    @Test
    void aDeletedObjectBeingHandedOverIsCleanedUpByItsNewShard() throws Exception {
        CountingCleaner cleaner = new CountingCleaner();
        @SuppressWarnings("unchecked")
        Cleaner<ConfigMap> wrapped =
                (Cleaner<ConfigMap>) GuardedReconciler.wrap(cleaner, guard, (r, client) -> ShardDrain.Answer.STOPPED);

        DeleteControl control = wrapped.cleanup(resource, context);

        assertThat(cleaner.cleanups.get()).isZero();
        assertThat(control.isRemoveFinalizer()).isFalse();
        assertThat(((Cleaner<ConfigMap>) GuardedReconciler.wrap(cleaner, guard, ShardDrain.Responder.NONE))
                        .cleanup(resource, context)
                        .isRemoveFinalizer())
                .isTrue();
        assertThat(cleaner.cleanups.get()).isEqualTo(1);
    }

    private static class Counting implements Reconciler<ConfigMap> {
        final AtomicInteger reconciles = new AtomicInteger();

        @Override
        public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
            reconciles.incrementAndGet();
            return UpdateControl.<ConfigMap>noUpdate().rescheduleAfter(Duration.ofSeconds(5));
        }
    }

    private static final class CountingCleaner extends Counting implements Cleaner<ConfigMap> {
        final AtomicInteger cleanups = new AtomicInteger();

        @Override
        public DeleteControl cleanup(ConfigMap resource, Context<ConfigMap> context) {
            cleanups.incrementAndGet();
            return DeleteControl.defaultDelete();
        }
    }
}
