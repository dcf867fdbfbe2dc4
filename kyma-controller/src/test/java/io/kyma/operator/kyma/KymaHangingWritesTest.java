package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/**
 * A webhook that never answers holds some of a Kyma's component writes: each such write fails after its timeout, and
 * the reconcile's time can run out among them (its thread is then interrupted, which fails every later call, as
 * fabric8 does). Over every layout of hanging modules and every point where the time runs out: the status quotes the
 * webhook all the same, and every module the webhook does not hold is created within as many reconciles as there are
 * modules.
 */
class KymaHangingWritesTest {
    private static final String WEBHOOK =
            "Internal error occurred: failed calling webhook \"gate.example.com\":" + " context deadline exceeded";
    private static final List<String> MODULES = List.of("m0", "m1", "m2", "m3", "m4");

    @Test
    void theStatusQuotesTheWebhookAndEveryModuleItDoesNotHoldIsCreated() {
        int layouts = 0;
        for (int held = 1; held < 1 << MODULES.size(); held++) {
            for (int timeUpAfter = 1; timeUpAfter <= MODULES.size(); timeUpAfter++) {
                int mask = held;
                Set<String> hanging = Set.copyOf(IntStream.range(0, MODULES.size())
                        .filter(i -> (mask & 1 << i) != 0)
                        .mapToObj(i -> "k-" + MODULES.get(i))
                        .toList());
                check(hanging, timeUpAfter);
                layouts++;
            }
        }
        assertThat(layouts).isEqualTo(31 * 5);
    }

    private static void check(Set<String> hanging, int timeUpAfter) {
        String at = hanging + ", time up after " + timeUpAfter + " hanging writes";
        Hanging api = new Hanging(hanging, timeUpAfter);
        SharedStore<HelmComponent> store = new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
        store.syncedWhen(() -> true);
        KymaReconciler reconciler = new KymaReconciler(
                new MutableClock(Instant.parse("2026-01-02T00:00:00Z")), Duration.ofSeconds(5), store, -1, api);
        Kyma kyma = TestKymas.kyma("k", "uid-k", MODULES.toArray(String[]::new));
        for (int reconcile = 0; reconcile < MODULES.size(); reconcile++) {
            Throwable thrown = catchThrowable(() -> reconciler.reconcile(kyma, new FakeContext<>(kyma, List.of())));
            assertThat(thrown).as(at).isInstanceOf(KubernetesClientException.class);
            assertThat(Thread.interrupted())
                    .as("the interrupt is left for the guard: %s", at)
                    .isEqualTo(api.timeUp);
            assertThat(api.lastStatus).as(at).isNotNull();
            assertThat(api.lastStatus.getConditions())
                    .as("the status quotes the webhook: %s", at)
                    .anySatisfy(c -> assertThat(c.getMessage()).contains("gate.example.com"));
            api.nextReconcile();
        }
        assertThat(api.created.stream().distinct()) // this server keeps nothing: a created one is created again
                .as("every module the webhook does not hold: %s", at)
                .containsExactlyInAnyOrderElementsOf(MODULES.stream()
                        .map(m -> "k-" + m)
                        .filter(n -> !hanging.contains(n))
                        .toList());
    }

    /** Creates that hang until their timeout for some names; the reconcile's time runs out after a few of them. */
    private static final class Hanging implements KymaWrites {
        final List<String> created = new java.util.ArrayList<>();
        final Set<String> hanging;
        final int timeUpAfter;
        int hangs;
        boolean timeUp;
        KymaStatus lastStatus;

        Hanging(Set<String> hanging, int timeUpAfter) {
            this.hanging = hanging;
            this.timeUpAfter = timeUpAfter;
        }

        void nextReconcile() {
            hangs = 0;
            timeUp = false;
        }

        private void call() {
            if (Thread.currentThread().isInterrupted()) {
                throw new KubernetesClientException("interrupted", new InterruptedIOException());
            }
        }

        @Override
        public HelmComponent create(HelmComponent desired) {
            call();
            String name = desired.getMetadata().getName();
            if (hanging.contains(name)) {
                if (++hangs >= timeUpAfter) {
                    timeUp = true;
                    Thread.currentThread().interrupt(); // the guard's alarm, while this write waited
                }
                throw new KubernetesClientException(new StatusBuilder()
                        .withCode(500)
                        .withReason("InternalError")
                        .withMessage(WEBHOOK)
                        .build());
            }
            created.add(name);
            return desired;
        }

        @Override
        public HelmComponent get(String namespace, String name) {
            call();
            return null;
        }

        @Override
        public HelmComponent restore(HelmComponent existing, ChildDrift.Restore restore) {
            call();
            return existing;
        }

        @Override
        public void delete(HelmComponent component) {
            call();
        }

        @Override
        public Optional<String> liveUid(String namespace, String name) {
            call();
            return Optional.empty();
        }

        @Override
        public void status(Kyma kyma, KymaStatus status) {
            call();
            lastStatus = status;
        }
    }
}
