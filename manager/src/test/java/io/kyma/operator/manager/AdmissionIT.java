package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * Admission through the manager's wiring: with a backlog bound smaller than one Kyma's components, Kymas created
 * together wait in phase Pending, are told their place, and get their components oldest first, the last ones too.
 * <p>
 * The Kymas exist before the manager starts, so its initial list holds all of them at once and the line is complete
 * before the first is admitted.
 */
class AdmissionIT {
    private static final String NS = "admission";
    private static final int KYMAS = 12;
    private static final List<String> MODULES = Samples.MODULES.subList(0, 6);
    private static KubernetesClient admin;

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    @Test
    void kymasCreatedTogetherGetTheirComponentsOldestFirstAndTheOthersSayTheyAreQueued() {
        try (History history = new History(admin, NS)) {
            List<String> names = IntStream.range(0, KYMAS)
                    .mapToObj(i -> String.format("kyma-%02d", i))
                    .toList();
            // created in name order: within one second of creation time, the line is ordered by name
            names.forEach(
                    name -> admin.resource(Samples.kyma(NS, name, MODULES)).create());
            try (RunningManager manager = new RunningManager(
                    NS, "--transition-unit", "20ms", "--max-concurrent-reconciles", "4", "--admission-backlog", "6")) {
                await().atMost(HangCatcher.LOAD)
                        .until(() -> names.stream()
                                .allMatch(name -> phase(admin.resources(Kyma.class)
                                                .inNamespace(NS)
                                                .withName(name)
                                                .get())
                                        == KymaPhase.READY));
                assertThat(manager.manager.metrics().scrape()).contains("kyma_operator_admission_waiting 0.0");
            }

            // the history's watches are streams of their own: they may deliver the last versions after a read found
            // them
            await().atMost(HangCatcher.STEP)
                    .until(() -> history.kymaVersions(names.get(KYMAS - 1)).stream()
                            .anyMatch(k -> phase(k) == KymaPhase.READY));
            Map<String, Long> firstCreate = new HashMap<>();
            for (History.Event event : history.events()) {
                if (event.action() == Watcher.Action.ADDED && event.object() instanceof HelmComponent component) {
                    firstCreate.merge(
                            component.getMetadata().getLabels().get(Labels.KYMA),
                            Long.parseLong(component.getMetadata().getResourceVersion()),
                            Math::min);
                }
            }
            assertThat(firstCreate).hasSize(KYMAS);
            // One Kyma's components fill the bound, so each is admitted once the one before has its components.
            List<Long> inOrder = names.stream().map(firstCreate::get).toList();
            assertThat(inOrder)
                    .as("first component create of each Kyma, oldest Kyma first")
                    .isSorted();

            List<Kyma> last = history.kymaVersions(names.get(KYMAS - 1));
            assertThat(last).as("the youngest Kyma waited for its turn").anySatisfy(k -> {
                assertThat(phase(k)).isEqualTo(KymaPhase.PENDING);
                assertThat(k.getStatus().getConditions()).singleElement().satisfies(c -> {
                    assertThat(c.getReason()).isEqualTo("Queued");
                    assertThat(c.getMessage()).contains("ahead in line");
                });
            });
            assertThat(last.stream().map(AdmissionIT::phase).distinct().toList())
                    .as("phases in order")
                    .containsSubsequence(KymaPhase.PENDING, KymaPhase.PROCESSING, KymaPhase.READY);
        }
    }

    private static KymaPhase phase(Kyma kyma) {
        return kyma == null || kyma.getStatus() == null
                ? null
                : kyma.getStatus().getPhase();
    }
}
