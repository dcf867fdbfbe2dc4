package io.kyma.operator.manager.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.common.status.StatusPatch;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.testing.MutableClock;

class ReconcileGuardTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final OperatorMetrics metrics = new OperatorMetrics();
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
            metrics,
            late);
    private final ConfigMap resource = new ConfigMapBuilder()
            .withNewMetadata()
            .withName("r")
            .withNamespace("ns")
            .endMetadata()
            .build();

    @AfterEach
    void stopWatchdog() {
        watchdog.shutdownNow();
    }

    @Test
    void onlyAReconcileSoonerThanTheSyncPeriodIsAwaitedSoThatNothingOfADeletedObjectIsKeptLong() {
        for (Duration asked : List.of(Duration.ZERO, Duration.ofSeconds(1), Duration.ofMinutes(9))) {
            assertThat(guard.again(resource, Optional.of(asked))).isEqualTo(asked);
            assertThat(late.awaited()).as("%s", asked).isEqualTo(1);
        }
        for (Optional<Duration> resync : List.of(Optional.<Duration>empty(), Optional.of(Duration.ofHours(11)))) {
            assertThat(guard.again(resource, resync)).isEqualTo(Duration.ofMinutes(10));
            assertThat(late.awaited()).as("the resync: %s", resync).isZero();
        }
    }

    @Test
    void aWriteConflictIsRetriedWithoutCountingAsAnError() {
        var result = guard.run(resource, () -> {
            throw new KubernetesClientException("the object has been modified", 409, null);
        });

        assertThat(result.outcome()).isEqualTo(ReconcileGuard.Outcome.FAILED);
        assertThat(result.delay()).isEqualTo(Duration.ofMillis(500));
        assertThat(metrics.reconcileConflicts("test").count()).isEqualTo(1);
        assertThat(metrics.reconcileErrors("test").count()).isZero();
        assertThat(metrics.reconciles("test", "requeue").count()).isEqualTo(1);
    }

    @Test
    void anyOtherFailureIsAnError() {
        var result = guard.run(resource, () -> {
            throw new KubernetesClientException("forbidden", 403, null);
        });

        assertThat(result.outcome()).isEqualTo(ReconcileGuard.Outcome.FAILED);
        assertThat(metrics.reconcileErrors("test").count()).isEqualTo(1);
        assertThat(metrics.reconcileConflicts("test").count()).isZero();
    }

    @Test
    void anErrorIsAFailureRetriedWithBackoffNotAThrowThatWouldWedgeTheResource() {
        var result = guard.run(resource, () -> {
            throw new StackOverflowError();
        });

        assertThat(result.outcome()).isEqualTo(ReconcileGuard.Outcome.FAILED);
        assertThat(result.delay()).isEqualTo(Duration.ofMillis(500));
        assertThat(metrics.reconcileErrors("test").count()).isEqualTo(1);
    }

    @Test
    void aConflictedResourceWaitsOutItsBackoffBeforeTheNextAttempt() {
        guard.run(resource, () -> {
            throw new KubernetesClientException("conflict", 409, null);
        });

        assertThat(guard.run(resource, () -> "ran").outcome()).isEqualTo(ReconcileGuard.Outcome.DEFERRED);
        clock.advance(Duration.ofMillis(500));
        assertThat(guard.run(resource, () -> "ran").value()).isEqualTo("ran");
    }

    @Test
    void aNewGenerationADeletionOrANewObjectOfTheSameNameDoesNotWaitOutAnEarlierBackoff() {
        ConfigMap failing = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("r")
                .withNamespace("ns")
                .withUid("u1")
                .withGeneration(1L)
                .endMetadata()
                .build();
        for (int i = 0; i < 5; i++) {
            clock.advance(guard.run(failing, () -> {
                        throw new IllegalStateException("broken");
                    })
                    .delay());
        }
        guard.run(failing, () -> {
            throw new IllegalStateException("broken");
        });
        assertThat(guard.run(failing, () -> "ran").outcome()).isEqualTo(ReconcileGuard.Outcome.DEFERRED);
        ConfigMap edited = new ConfigMapBuilder(failing)
                .editMetadata()
                .withGeneration(2L)
                .endMetadata()
                .build();
        assertThat(guard.run(edited, () -> "ran").value())
                .as("a new generation")
                .isEqualTo("ran");

        guard.run(failing, () -> {
            throw new IllegalStateException("broken");
        });
        ConfigMap deleting = new ConfigMapBuilder(failing)
                .editMetadata()
                .withDeletionTimestamp("2026-01-01T00:10:00Z")
                .endMetadata()
                .build();
        assertThat(guard.run(deleting, () -> "ran").value()).as("a deletion").isEqualTo("ran");

        guard.run(failing, () -> {
            throw new IllegalStateException("broken");
        });
        ConfigMap again = new ConfigMapBuilder(failing)
                .editMetadata()
                .withUid("u2")
                .endMetadata()
                .build();
        assertThat(guard.run(again, () -> "ran").value())
                .as("created again under the same name")
                .isEqualTo("ran");
    }

    /**
     * Found by the control-plane restart scenario: a kube-apiserver that has just started answers 404 for custom
     * resources until it has loaded their CRDs. Taken for a deletion, the Run waited for the sync period (minutes).
     */
    @Test
    void notFoundIsRetriedWithBackoffNotParkedUntilTheSyncPeriod() {
        var result = guard.run(resource, () -> {
            throw new KubernetesClientException("the server could not find the requested resource", 404, null);
        });

        assertThat(result.outcome()).isEqualTo(ReconcileGuard.Outcome.FAILED);
        assertThat(result.delay()).isEqualTo(Duration.ofMillis(500));
        assertThat(metrics.reconcileErrors("test").count()).isZero();
        clock.advance(Duration.ofMillis(500));
        assertThat(guard.run(resource, () -> "ran").value()).isEqualTo("ran");
    }

    /**
     * Every answer code, bare, wrapped, and as the answer to the operator's own status write: only a malformed write
     * of the spec's content waits for the next change; everything else backs off, capped at the limiter's maximum.
     */
    @Test
    void onlyWhatASpecEditAloneCanFixWaitsForTheNextChangeEverythingElseBacksOffWithinTheCap() {
        for (int code = 400; code <= 599; code++) {
            for (boolean statusWrite : new boolean[] {false, true}) {
                for (String reason : new String[] {"Forbidden", "AlreadyExists", null}) {
                    ConfigMap each = new ConfigMapBuilder(resource)
                            .editMetadata()
                            .withUid(code + "-" + statusWrite + "-" + reason)
                            .endMetadata()
                            .build();
                    KubernetesClientException answer = new KubernetesClientException(
                            "refused",
                            code,
                            new StatusBuilder()
                                    .withCode(code)
                                    .withReason(reason)
                                    .build());
                    RuntimeException thrown =
                            statusWrite ? new StatusPatch.Refused(answer) : new RuntimeException("wrapped", answer);
                    boolean spec = !statusWrite && (code == 400 || code == 413 || code == 422);
                    double terminal = metrics.terminalReconcileErrors("test").count();
                    double refusals = metrics.statusWriteRefusals("test").count();
                    Duration delay = Duration.ZERO;
                    for (int attempt = 0; attempt < 12; attempt++) {
                        var result = guard.run(each, () -> {
                            throw thrown;
                        });
                        assertThat(result.outcome()).isEqualTo(ReconcileGuard.Outcome.FAILED);
                        delay = result.delay();
                        if (!spec) {
                            assertThat(delay)
                                    .as("%d %s %s", code, statusWrite, reason)
                                    .isLessThanOrEqualTo(Duration.ofSeconds(60));
                            clock.advance(delay);
                        }
                    }
                    String at = code + " " + statusWrite + " " + reason;
                    if (spec) {
                        assertThat(delay).as(at).isEqualTo(Duration.ofMinutes(10));
                        assertThat(metrics.terminalReconcileErrors("test").count())
                                .as(at)
                                .isEqualTo(terminal + 12);
                    } else {
                        assertThat(delay)
                                .as("the backoff reached its cap: %s", at)
                                .isEqualTo(Duration.ofSeconds(60));
                        assertThat(metrics.terminalReconcileErrors("test").count())
                                .as(at)
                                .isEqualTo(terminal);
                    }
                    boolean refused = statusWrite && (code == 400 || code == 413 || code == 422);
                    assertThat(metrics.statusWriteRefusals("test").count())
                            .as("counted loudly: %s", at)
                            .isEqualTo(refusals + (refused ? 12 : 0));
                }
            }
        }
    }

    @Test
    void quotaExceededIsRetriedWithBackoff() {
        var result = guard.run(resource, () -> {
            throw new KubernetesClientException(
                    "forbidden",
                    403,
                    new StatusBuilder()
                            .withReason("Forbidden")
                            .withMessage(
                                    "exceeded quota: count, requested: count/helmcomponents=1, used: 5, limited: 5")
                            .build());
        });

        assertThat(result.delay()).isEqualTo(Duration.ofMillis(500));
        assertThat(metrics.terminalReconcileErrors("test").count()).isZero();
        clock.advance(result.delay());
        assertThat(guard.run(resource, () -> "ran").value()).isEqualTo("ran");
    }
}
