package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.monitoring.AggregatedMetrics;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.manager.ScriptedReconciler.Action;
import io.kyma.operator.manager.guard.LateReconciles;
import io.kyma.operator.manager.guard.MissedExecutions;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * JOSDK 5.2.3 never reconciles a resource again once a reconcile handed to the pool finds it missing from the cache
 * (fixed upstream in 5.5.1). This runs that case on the real JOSDK and API server, with a store that misses once
 * right after the resource's reconcile was submitted: without {@link MissedExecutions} the resource is wedged, with it
 * the resource is reconciled.
 */
class MissedExecutionIT {
    private static final String NS = "missed-execution";
    private static KubernetesClient admin;

    @BeforeAll
    static void setUp() {
        admin = EmbeddedControlPlane.get().newClient();
        Namespaces.apply(admin, NS);
    }

    @AfterAll
    static void tearDown() {
        admin.close();
    }

    @Test
    void aReconcileThatFindsItsResourceMissingFromTheCacheWedgesItUnlessReleased() {
        OperatorMetrics metrics = new OperatorMetrics();
        MissingOnce store = new MissingOnce();
        // the store misses each resource's first look by a worker: armed when its first reconcile is submitted
        QueueMetrics queueMetrics = new QueueMetrics(metrics, Clock.systemUTC());
        Metrics arming = new Metrics() {
            @Override
            public void reconcileCustomResource(HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
                store.arm(Cache.metaNamespaceKeyFunc(resource));
            }
        };
        MissedExecutions missed = new MissedExecutions(metrics::missedExecutions);
        // "wedged" is left as JOSDK 5.2.3 leaves it; "released" gets the guard
        queueMetrics.onMissedExecution((controller, resource) -> {
            if (!resource.getMetadata().getName().equals("wedged")) {
                missed.release(controller, resource);
            }
        });
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.SUCCEED, Duration.ZERO);
        Operator operator = new Operator(o -> o.withKubernetesClient(admin)
                .withMetrics(new AggregatedMetrics(List.of(queueMetrics, arming)))
                .withConcurrentReconciliationThreads(1)
                .withCloseClientOnStop(false));
        try {
            var configuration = ControllerConfigurationOverrider.override(
                            operator.getConfigurationService().getConfigurationFor(reconciler))
                    .settingNamespace(NS)
                    .withItemStore(store)
                    .build();
            missed.register((Controller<ConfigMap>) operator.register(reconciler, configuration));
            operator.start();

            create("wedged");
            await().atMost(HangCatcher.STEP).until(() -> store.missed("wedged"));
            create("released");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("released").size() == 1);
            assertThat(metrics.missedExecutions("scripted-a").count()).isEqualTo(1.0);

            // Both are edited, "wedged" first. One worker serves the reconciles in order, so once "released" has
            // been reconciled for its edit, "wedged" would have been too, were it not marked as under processing.
            touch("wedged");
            touch("released");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("released").size() == 2);
            assertThat(reconciler.attempts("wedged"))
                    .as("JOSDK 5.2.3 skips every event of it")
                    .isEmpty();
        } finally {
            operator.stop();
            Stream.of("wedged", "released")
                    .forEach(name ->
                            admin.configMaps().inNamespace(NS).withName(name).delete());
        }
    }

    @Test
    void aReconcileDeliveredLateReachesItsObjectOnTheRealJosdk() {
        MissedExecutions missed = new MissedExecutions(new OperatorMetrics()::missedExecutions);
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.SUCCEED, Duration.ZERO);
        Operator operator = new Operator(o -> o.withKubernetesClient(admin).withCloseClientOnStop(false));
        try {
            var configuration = ControllerConfigurationOverrider.override(
                            operator.getConfigurationService().getConfigurationFor(reconciler))
                    .settingNamespace(NS)
                    .build();
            missed.register((Controller<ConfigMap>) operator.register(reconciler, configuration));
            operator.start();
            create("late");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("late").size() == 1);
            ConfigMap late = admin.configMaps().inNamespace(NS).withName("late").get();
            ResourceID id = ResourceID.fromResource(late);

            assertThat(missed.deliver(new LateReconciles.Due(
                            "scripted-a", id, late.getMetadata().getUid(), Instant.now(), false)))
                    .isTrue();
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("late").size() == 2);
            // as after the clean-up of an object of the name that was deleted: the object now there is reconciled
            missed.deliver(new LateReconciles.Due("scripted-a", id, "uid-of-the-deleted-one", Instant.now(), true));
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("late").size() == 3);
        } finally {
            operator.stop();
            admin.configMaps().inNamespace(NS).withName("late").delete();
        }
    }

    private static void create(String name) {
        admin.resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .addToLabels("scripted", "a")
                        .endMetadata()
                        .addToData("touched", "0")
                        .build())
                .create();
    }

    private static void touch(String name) {
        admin.configMaps().inNamespace(NS).withName(name).edit(cm -> {
            cm.getData().put("touched", Long.toString(System.nanoTime()));
            return cm;
        });
    }

    /** The informer's store, but a key armed once reads as missing at its next look. */
    private static final class MissingOnce implements ItemStore<ConfigMap> {
        private final BasicItemStore<ConfigMap> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
        private final Set<String> armedOnce = ConcurrentHashMap.newKeySet();
        private final Set<String> armed = ConcurrentHashMap.newKeySet();
        private final Set<String> missed = ConcurrentHashMap.newKeySet();

        void arm(String key) {
            if (armedOnce.add(key)) {
                armed.add(key);
            }
        }

        boolean missed(String name) {
            return missed.contains(NS + "/" + name);
        }

        @Override
        public String getKey(ConfigMap object) {
            return items.getKey(object);
        }

        @Override
        public ConfigMap put(String key, ConfigMap object) {
            return items.put(key, object);
        }

        @Override
        public ConfigMap remove(String key) {
            return items.remove(key);
        }

        @Override
        public Stream<String> keySet() {
            return items.keySet();
        }

        @Override
        public Stream<ConfigMap> values() {
            return items.values();
        }

        @Override
        public ConfigMap get(String key) {
            if (armed.remove(key)) {
                missed.add(key);
                return null;
            }
            return items.get(key);
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public boolean isFullState() {
            return items.isFullState();
        }
    }
}
