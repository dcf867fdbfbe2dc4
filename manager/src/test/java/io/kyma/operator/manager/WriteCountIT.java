package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.RequestRecorder;

/**
 * The write budget of one Kyma at the default 1 s unit and 5 s status interval: at most 20 Kyma status writes, two
 * events and 130 writes in all. This is the one slow test (about 70 s): the coalescing only shows at real time scales.
 * What it asserts about time is a lower bound, that no component finishes sooner than its dwells allow; its waits'
 * deadlines only catch hangs ({@link HangCatcher}).
 */
class WriteCountIT {
    private static final String NS = "kyma-writes";

    @Test
    void oneKymaOfEighteenModulesStaysWithinItsWriteBudget() {
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, NS);
            try (RunningManager manager = new RunningManager(NS)) {
                long started = System.nanoTime();
                admin.resource(Samples.kyma(NS, "budget", Samples.MODULES)).create();
                await().atMost(HangCatcher.LOAD)
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            Kyma kyma = admin.resources(Kyma.class)
                                    .inNamespace(NS)
                                    .withName("budget")
                                    .get();
                            return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
                        });
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                RequestRecorder requests = manager.requests;
                // events go out in the background: the last one, Ready's, a moment after the status that says it; and
                // a write is recorded once its answer is read, which may be after the Kyma's status counted it
                await().atMost(HangCatcher.STEP)
                        .until(() -> requests.requests().stream()
                                                .filter(r -> r.isWrite()
                                                        && r.resource().equals("events"))
                                                .count()
                                        >= 2
                                && requests.statusWrites("helmcomponents") >= 90);
                long kymaStatus = requests.statusWrites("kymas");
                long kymaAll = requests.writes("kymas");
                long componentCreates = requests.requests().stream()
                        .filter(r -> r.isWrite()
                                && r.resource().equals("helmcomponents")
                                && r.method().equals("POST"))
                        .count();
                long componentStatus = requests.statusWrites("helmcomponents");
                long events = requests.requests().stream()
                        .filter(r -> r.isWrite() && r.resource().equals("events"))
                        .count();
                long total = requests.requests().stream()
                        .filter(RequestRecorder.Request::isWrite)
                        .count();
                System.out.printf(
                        "One Kyma of 18 modules: Ready after %d ms; writes: %d Kyma status, %d Kyma other, "
                                + "%d component creates, %d component status, %d events, %d in all%n",
                        took.toMillis(),
                        kymaStatus,
                        kymaAll - kymaStatus,
                        componentCreates,
                        componentStatus,
                        events,
                        total);

                assertThat(took)
                        .as("no component may finish faster than 1 + 3N units")
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(67));
                assertThat(componentCreates).isEqualTo(18);
                assertThat(componentStatus).isEqualTo(90);
                assertThat(kymaStatus).isLessThanOrEqualTo(20);
                // admitted at once (nothing else waits in line), then Ready: one event each
                assertThat(events).isEqualTo(2);
                assertThat(total).isLessThanOrEqualTo(130); // events included
            }
        }
    }
}
