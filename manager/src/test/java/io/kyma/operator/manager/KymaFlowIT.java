package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * The Kyma and HelmComponent controllers together, through the manager's wiring, with a 10 ms unit. The waits'
 * deadlines only catch hangs ({@link HangCatcher}); what is asserted about time is that no state is left sooner
 * than its dwell.
 */
class KymaFlowIT {
    private static final String NS = "kyma-flow";
    private static final Duration UNIT = Duration.ofMillis(10);
    private static KubernetesClient admin;
    private static RunningManager manager;

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
        manager = new RunningManager(NS, "--transition-unit", "10ms", "--max-concurrent-reconciles", "50");
    }

    @AfterAll
    static void stop() {
        manager.close();
        admin.close();
    }

    @Test
    void eighteenModulesReachReadyWithEveryComponentWalkingEveryStateInOrder() {
        try (History history = new History(admin, NS)) {
            admin.resource(Samples.kyma(NS, "full", Samples.MODULES)).create();
            awaitPhase("full", KymaPhase.READY);
            // the history's watch is a stream of its own: it may deliver the last states after the Kyma says Ready
            await().atMost(HangCatcher.STEP)
                    .until(() -> Samples.MODULES.stream().allMatch(module -> {
                        List<HelmComponent> states = history.componentStates("full-" + module);
                        return !states.isEmpty()
                                && states.get(states.size() - 1).getStatus().getState() == ComponentState.SUCCESS;
                    }));

            Kyma kyma = get("full");
            assertThat(kyma.getStatus().getReadyComponents()).isEqualTo("18/18");
            assertThat(kyma.getStatus().getComponents().getSuccess()).isEqualTo(18);
            assertThat(kyma.getStatus().getObservedGeneration())
                    .isEqualTo(kyma.getMetadata().getGeneration());
            assertThat(kyma.getStatus().getConditions())
                    .singleElement()
                    .satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));

            for (String module : Samples.MODULES) {
                HelmComponent component = admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withName("full-" + module)
                        .get();
                assertThat(component.getMetadata().getLabels())
                        .containsEntry(Labels.KYMA, "full")
                        .containsEntry(Labels.MODULE, module)
                        .containsEntry(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE);
                assertThat(component.getMetadata().getOwnerReferences())
                        .singleElement()
                        .satisfies(o -> {
                            assertThat(o.getUid()).isEqualTo(kyma.getMetadata().getUid());
                            assertThat(o.getController()).isTrue();
                        });
                List<HelmComponent> states = history.componentStates("full-" + module);
                assertThat(states)
                        .as(module)
                        .extracting(c -> c.getStatus().getState())
                        .containsExactly(
                                ComponentState.PENDING,
                                ComponentState.STARTED,
                                ComponentState.FAILING,
                                ComponentState.RETRYING,
                                ComponentState.SUCCESS);
                List<Duration> minimum = List.of(
                        UNIT,
                        UNIT.multipliedBy(module.length()),
                        UNIT.multipliedBy(module.length()),
                        UNIT.multipliedBy(module.length()));
                for (int i = 1; i < states.size(); i++) {
                    assertThat(Duration.between(since(states.get(i - 1)), since(states.get(i))))
                            .as(
                                    "%s in %s",
                                    module, states.get(i - 1).getStatus().getState())
                            .isGreaterThanOrEqualTo(minimum.get(i - 1));
                }
            }
        }
    }

    @Test
    void removingAModuleDeletesItsComponentAndAddingOneCreatesIt() {
        admin.resource(Samples.kyma(NS, "edit", List.of("istio", "ory", "rafter")))
                .create();
        awaitPhase("edit", KymaPhase.READY);

        admin.resources(Kyma.class).inNamespace(NS).withName("edit").edit(k -> {
            k.getSpec()
                    .setModules(List.of(
                            new Module("istio", null), new Module("rafter", null), new Module("kiali", "1.0.0")));
            return k;
        });
        await().atMost(HangCatcher.STEP).untilAsserted(() -> {
            assertThat(componentNames("edit")).containsExactlyInAnyOrder("edit-istio", "edit-rafter", "edit-kiali");
            // the status must be about the edited spec: Ready from before the edit is not the answer
            Kyma kyma = get("edit");
            assertThat(kyma.getStatus().getObservedGeneration())
                    .isEqualTo(kyma.getMetadata().getGeneration());
            assertThat(kyma.getStatus().getPhase()).isEqualTo(KymaPhase.READY);
            assertThat(kyma.getStatus().getReadyComponents()).isEqualTo("3/3");
        });
        assertThat(admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withName("edit-kiali")
                        .get()
                        .getSpec()
                        .getVersion())
                .isEqualTo("1.0.0");
    }

    @Test
    void deletingTheKymaDeletesEveryComponentBeforeTheKymaGoes() {
        admin.resource(Samples.kyma(NS, "gone", List.of("istio", "logging", "ory")))
                .create();
        awaitPhase("gone", KymaPhase.READY);
        try (History history = new History(admin, NS)) {
            admin.resources(Kyma.class).inNamespace(NS).withName("gone").delete();
            await().atMost(HangCatcher.STEP).until(() -> get("gone") == null);
            // The history's watches, one per kind, deliver the deletions in their own time, each kind in order but
            // not the kinds with each other: the order the API server made them in is that of their resourceVersions.
            await().atMost(HangCatcher.STEP).until(() -> deletions(history).size() >= 4);
            Map<String, Long> deletions = deletions(history);
            assertThat(deletions).containsOnlyKeys("gone-istio", "gone-logging", "gone-ory", "gone");
            assertThat(deletions.entrySet().stream()
                            .max(Map.Entry.comparingByValue())
                            .orElseThrow()
                            .getKey())
                    .as("the last deletion")
                    .isEqualTo("gone");
            assertThat(history.kymaVersions("gone"))
                    .extracting(k -> k.getStatus().getPhase())
                    .contains(KymaPhase.DELETING);
        }
        assertThat(componentNames("gone")).isEmpty();
    }

    /** How long it takes is the benchmark's figure; this test prints it, and its deadline only catches a hang. */
    @Test
    void fiftyKymasCreatedAtOnceAllBecomeReady() {
        List<String> names = IntStream.range(0, 50).mapToObj(i -> "many-" + i).toList();
        long started = System.nanoTime();
        names.parallelStream()
                .forEach(name ->
                        admin.resource(Samples.kyma(NS, name, Samples.MODULES)).create());
        await().atMost(HangCatcher.LOAD)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> admin.resources(Kyma.class).inNamespace(NS).list().getItems().stream()
                                .filter(k -> names.contains(k.getMetadata().getName())
                                        && k.getStatus() != null
                                        && k.getStatus().getPhase() == KymaPhase.READY)
                                .count()
                        == names.size());
        System.out.printf(
                "50 Kymas of 18 modules at a 10 ms unit: all Ready %d s after the first create%n",
                Duration.ofNanos(System.nanoTime() - started).toSeconds());
        assertThat(
                        admin
                                .resources(HelmComponent.class)
                                .inNamespace(NS)
                                .withLabel(Labels.MANAGED_BY)
                                .list()
                                .getItems()
                                .stream()
                                .filter(c -> c.getMetadata().getName().startsWith("many-")))
                .hasSize(50 * 18)
                .allSatisfy(c -> assertThat(c.getStatus().getState()).isEqualTo(ComponentState.SUCCESS));
    }

    /** The objects the history saw deleted, by name, with the resourceVersion of their deletion. */
    private static Map<String, Long> deletions(History history) {
        Map<String, Long> deletions = new HashMap<>();
        for (History.Event event : history.events()) {
            if (event.action() == Watcher.Action.DELETED) {
                deletions.put(
                        event.object().getMetadata().getName(),
                        Long.parseLong(event.object().getMetadata().getResourceVersion()));
            }
        }
        return deletions;
    }

    private static Kyma get(String name) {
        return admin.resources(Kyma.class).inNamespace(NS).withName(name).get();
    }

    private static List<String> componentNames(String kyma) {
        return admin
                .resources(HelmComponent.class)
                .inNamespace(NS)
                .withLabel(Labels.KYMA, kyma)
                .list()
                .getItems()
                .stream()
                .map(c -> c.getMetadata().getName())
                .toList();
    }

    private static void awaitPhase(String name, KymaPhase phase) {
        await().atMost(HangCatcher.STEP).pollInterval(Duration.ofMillis(100)).until(() -> {
            Kyma kyma = get(name);
            return kyma != null && kyma.getStatus() != null && kyma.getStatus().getPhase() == phase;
        });
    }

    private static Instant since(HelmComponent component) {
        return Instant.parse(component.getStatus().getLastTransitionTime());
    }
}
