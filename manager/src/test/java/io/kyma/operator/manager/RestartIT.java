package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.helmcomponent.ComponentLifecycle;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/** An operator stopped in the middle of an installation and started again finishes it without losing a step. */
class RestartIT {
    private static final String NS = "kyma-restart";
    private static final Duration UNIT = Duration.ofMillis(100);
    private static KubernetesClient admin;

    @BeforeAll
    static void setUp() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
    }

    @AfterAll
    static void tearDown() {
        admin.close();
    }

    @Test
    void everyComponentCompletesWithNoStateSkippedOrWrittenTwice() throws InterruptedException {
        long statusWrites;
        try (History history = new History(admin, NS)) {
            try (RunningManager first = new RunningManager(NS, "--transition-unit", "100ms")) {
                admin.resource(Samples.kyma(NS, "restarted", Samples.MODULES)).create();
                // Stop while components are spread over started, failing and retrying (the whole run takes 6.7 s).
                await().atMost(HangCatcher.STEP)
                        .until(() -> admin.resources(HelmComponent.class).inNamespace(NS).list().getItems().stream()
                                        .filter(c -> c.getStatus() != null
                                                && c.getStatus().getState() == ComponentState.RETRYING)
                                        .count()
                                >= 3);
                first.close();
                statusWrites = first.requests.statusWrites("helmcomponents");
            }
            // While no operator runs, several components become overdue: their next state is due and nobody writes it.
            var lifecycle = new ComponentLifecycle(UNIT);
            await().atMost(HangCatcher.STEP)
                    .until(() -> admin.resources(HelmComponent.class).inNamespace(NS).list().getItems().stream()
                                    .filter(c -> c.getStatus().getState() != ComponentState.SUCCESS
                                            && Instant.parse(c.getStatus().getLastTransitionTime())
                                                    .plus(lifecycle
                                                            .dwell(
                                                                    c.getStatus()
                                                                            .getState(),
                                                                    c.getSpec().getModule())
                                                            .orElseThrow())
                                                    .isBefore(Instant.now()))
                                    .count()
                            >= 3);
            List<ComponentState> statesAtRestart =
                    admin.resources(HelmComponent.class).inNamespace(NS).list().getItems().stream()
                            .map(c -> c.getStatus().getState())
                            .toList();
            assertThat(statesAtRestart)
                    .hasSize(18)
                    .contains(ComponentState.RETRYING)
                    .anyMatch(s -> s != ComponentState.SUCCESS);

            // The second operator lists in pages smaller than the 18 components, as it would at scale.
            try (RunningManager second =
                    new RunningManager(NS, "--transition-unit", "100ms", "--informer-list-limit", "5")) {
                await().atMost(HangCatcher.STEP).until(() -> {
                    Kyma kyma = admin.resources(Kyma.class)
                            .inNamespace(NS)
                            .withName("restarted")
                            .get();
                    return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
                });
                // a write is recorded once its answer is read, which may be after the Kyma's status counted it
                long before = statusWrites;
                await().atMost(HangCatcher.STEP)
                        .until(() -> before + second.requests.statusWrites("helmcomponents") >= 18 * 5);
                statusWrites += second.requests.statusWrites("helmcomponents");
                List<String> componentLists = second.requests.requests().stream()
                        .filter(r -> r.verb().equals("list") && r.resource().equals("helmcomponents"))
                        .map(r -> r.query())
                        .toList();
                // One informer, shared by the HelmComponent and the Kyma controller, lists the 18 in 4 pages of 5.
                assertThat(componentLists)
                        .as("HelmComponent lists")
                        .allMatch(q -> q.contains("limit=5"))
                        .filteredOn(q -> !q.contains("continue="))
                        .as("informers that listed HelmComponents")
                        .hasSize(1);
                assertThat(componentLists).as("pages of the one list").hasSize(4);
            }

            // the history's watch is a stream of its own: it may deliver the last states after the Kyma says Ready
            await().atMost(HangCatcher.STEP)
                    .until(() -> Samples.MODULES.stream().allMatch(module -> {
                        List<HelmComponent> states = history.componentStates("restarted-" + module);
                        return !states.isEmpty()
                                && states.get(states.size() - 1).getStatus().getState() == ComponentState.SUCCESS;
                    }));
            for (String module : Samples.MODULES) {
                List<HelmComponent> states = history.componentStates("restarted-" + module);
                assertThat(states)
                        .as(module)
                        .extracting(c -> c.getStatus().getState())
                        .containsExactly(
                                ComponentState.PENDING,
                                ComponentState.STARTED,
                                ComponentState.FAILING,
                                ComponentState.RETRYING,
                                ComponentState.SUCCESS);
                for (int i = 1; i < states.size(); i++) {
                    Duration dwell = i == 1 ? UNIT : UNIT.multipliedBy(module.length());
                    assertThat(Duration.between(since(states.get(i - 1)), since(states.get(i))))
                            .as(module)
                            .isGreaterThanOrEqualTo(dwell);
                }
            }
        }
        assertThat(statusWrites)
                .as("one status write per component and state, across both operators")
                .isEqualTo(18 * 5);
    }

    private static Instant since(HelmComponent component) {
        return Instant.parse(component.getStatus().getLastTransitionTime());
    }
}
