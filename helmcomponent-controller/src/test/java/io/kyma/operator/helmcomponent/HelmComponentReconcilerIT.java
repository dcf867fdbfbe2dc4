package io.kyma.operator.helmcomponent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.OperatorExtensions;
import io.kyma.operator.testing.RequestRecorder;

/**
 * The HelmComponent reconciler on its own, with a 10 ms unit. What is asserted about time is that no state is left
 * sooner than its dwell; the waits' deadlines only catch hangs.
 */
class HelmComponentReconcilerIT {
    private static final Duration UNIT = Duration.ofMillis(10);

    private static final RequestRecorder REQUESTS = new RequestRecorder();
    private static final CountingReconciler RECONCILER = new CountingReconciler();

    @RegisterExtension
    static final LocallyRunOperatorExtension OPERATOR = OperatorExtensions.locallyRunOperator()
            .withKubernetesClient(EmbeddedControlPlane.get().newClient(REQUESTS))
            .withReconciler(RECONCILER)
            .build();

    @Test
    void aComponentWalksEveryStateInOrderWithOneWriteAndOneReconcilePerTransition() {
        Map<String, List<HelmComponent>> seen = new ConcurrentHashMap<>();
        try (Watch ignored = watchStates(seen)) {
            OPERATOR.create(component("prod-logging", "logging"));
            await().atMost(HangCatcher.STEP).until(() -> state("prod-logging") == ComponentState.SUCCESS);
            // the watch is a stream of its own, and may deliver the last state after a read finds it
            await().atMost(HangCatcher.STEP)
                    .until(() -> seen.getOrDefault("prod-logging", List.of()).stream()
                            .anyMatch(c -> c.getStatus().getState() == ComponentState.SUCCESS));
        }
        List<HelmComponent> history = seen.get("prod-logging");
        assertThat(history)
                .extracting(c -> c.getStatus().getState())
                .containsExactly(
                        ComponentState.PENDING,
                        ComponentState.STARTED,
                        ComponentState.FAILING,
                        ComponentState.RETRYING,
                        ComponentState.SUCCESS);
        // "logging" has 7 characters: 1 unit pending, then 7 units in each of started, failing and retrying.
        List<Duration> dwell = new ArrayList<>();
        for (int i = 1; i < history.size(); i++) {
            dwell.add(Duration.between(since(history.get(i - 1)), since(history.get(i))));
        }
        assertThat(dwell.get(0)).isGreaterThanOrEqualTo(UNIT);
        assertThat(dwell.subList(1, 4)).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(UNIT.multipliedBy(7)));

        // a write is recorded once its answer is read, which may be after another reader found what it wrote
        await().atMost(HangCatcher.STEP).until(() -> statusWrites("prod-logging") >= 5);
        assertThat(statusWrites("prod-logging")).isEqualTo(5);
        assertThat(RECONCILER.reconciles("prod-logging"))
                .as("the create event plus one timer per transition")
                .isEqualTo(5);
    }

    @Test
    void aStatusFromAnotherWriterDoesNotTriggerAReconcile() {
        OPERATOR.create(component("prod-ory", "ory"));
        await().atMost(HangCatcher.STEP).until(() -> state("prod-ory") == ComponentState.SUCCESS);
        int before = RECONCILER.reconciles("prod-ory");
        HelmComponent labelled = OPERATOR.get(HelmComponent.class, "prod-ory");
        labelled.getMetadata().setLabels(Map.of("touched", "yes"));
        OPERATOR.replace(labelled);
        await().during(Duration.ofMillis(500))
                .atMost(HangCatcher.STEP)
                .until(() -> RECONCILER.reconciles("prod-ory") == before);
        assertThat(state("prod-ory")).isEqualTo(ComponentState.SUCCESS);
    }

    private Watch watchStates(Map<String, List<HelmComponent>> seen) {
        return OPERATOR.getKubernetesClient()
                .resources(HelmComponent.class)
                .inNamespace(OPERATOR.getNamespace())
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, HelmComponent resource) {
                        if (resource.getStatus() == null || resource.getStatus().getState() == null) {
                            return;
                        }
                        List<HelmComponent> list = seen.computeIfAbsent(
                                resource.getMetadata().getName(), k -> new CopyOnWriteArrayList<>());
                        if (list.isEmpty()
                                || list.get(list.size() - 1).getStatus().getState()
                                        != resource.getStatus().getState()) {
                            list.add(resource);
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                });
    }

    private static long statusWrites(String name) {
        return REQUESTS.requests().stream()
                .filter(r ->
                        r.isWrite() && r.name().equals(name) && r.subresource().equals("status"))
                .count();
    }

    private ComponentState state(String name) {
        HelmComponent component = OPERATOR.get(HelmComponent.class, name);
        return component == null || component.getStatus() == null
                ? null
                : component.getStatus().getState();
    }

    private static Instant since(HelmComponent component) {
        return Instant.parse(component.getStatus().getLastTransitionTime());
    }

    private HelmComponent component(String name, String module) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(OPERATOR.getNamespace())
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        component.getSpec().setKyma("prod");
        return component;
    }

    /** The real reconciler, counting its invocations per resource. */
    static class CountingReconciler extends HelmComponentReconciler {
        private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

        CountingReconciler() {
            super(Clock.systemUTC(), UNIT);
        }

        @Override
        public UpdateControl<HelmComponent> reconcile(HelmComponent component, Context<HelmComponent> context) {
            counts.computeIfAbsent(component.getMetadata().getName(), k -> new AtomicInteger())
                    .incrementAndGet();
            return super.reconcile(component, context);
        }

        int reconciles(String name) {
            return counts.getOrDefault(name, new AtomicInteger()).get();
        }
    }
}
