package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.manager.ScriptedReconciler.Action;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.Namespaces;

/**
 * The shared limiters, the concurrency guarantee, the sync period and the reconcile timeout, each with scripted
 * ConfigMap controllers run through the manager's real wiring. Margins are generous: exact figures belong in the
 * benchmark.
 */
class LimiterIT {
    private static KubernetesClient admin;

    @BeforeAll
    static void setUp() {
        admin = EmbeddedControlPlane.get().newClient();
    }

    @AfterAll
    static void tearDown() {
        admin.close();
    }

    @Test
    void failedReconcilesAreRetriedWithDoublingDelaysAndSuccessResetsThem() {
        String ns = namespace("limiter-backoff");
        Map<String, Integer> failUntil = new ConcurrentHashMap<>(Map.of("flaky", 5));
        var reconciler = new ScriptedReconciler.A(
                (name, attempt) -> attempt <= failUntil.get(name) ? Action.FAIL : Action.SUCCEED, Duration.ZERO);
        try (KymaOperator ignored =
                start(ns, List.of(reconciler), "--failure-base-delay", "200ms", "--failure-max-delay", "10s")) {
            create(ns, "flaky", "a");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> reconciler.attempts("flaky").size() >= 6);
            List<Duration> gaps = gaps(reconciler.attempts("flaky"));
            long[] expected = {200, 400, 800, 1600, 3200};
            for (int i = 0; i < expected.length; i++) {
                assertThat(gaps.get(i).toMillis())
                        .as("delay after failure %d", i + 1)
                        .isBetween(expected[i] - 20, expected[i] + 1000);
            }

            // Success forgot the backoff: the next failure waits the base delay again, not 6.4 s.
            failUntil.put("flaky", 7);
            touch(ns, "flaky");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> reconciler.attempts("flaky").size() >= 8);
            assertThat(gaps(reconciler.attempts("flaky")).get(6).toMillis()).isBetween(180L, 1500L);
        }
    }

    @Test
    void twoControllersFailingTogetherShareTheOneBucket() throws InterruptedException {
        String ns = namespace("limiter-bucket");
        var a = new ScriptedReconciler.A((name, attempt) -> Action.FAIL, Duration.ZERO);
        var b = new ScriptedReconciler.B((name, attempt) -> Action.FAIL, Duration.ZERO);
        // Backoff alone would retry every 10 ms; the bucket allows 5 retries per second for both controllers.
        try (KymaOperator ignored = start(
                ns,
                List.of(a, b),
                "--failure-base-delay",
                "10ms",
                "--failure-max-delay",
                "10ms",
                "--rate-limiter-frequency",
                "5",
                "--rate-limiter-burst",
                "1")) {
            for (int i = 0; i < 3; i++) {
                create(ns, "a-" + i, "a");
                create(ns, "b-" + i, "b");
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> a.totalAttempts() + b.totalAttempts() >= 30);
            // The rate of retries once the first attempts are past, from the attempts' own times.
            List<Instant> all = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                all.addAll(a.attempts("a-" + i));
                all.addAll(b.attempts("b-" + i));
            }
            Collections.sort(all);
            double perSecond = 19 / (Duration.between(all.get(10), all.get(29)).toMillis() / 1000.0);
            assertThat(perSecond)
                    .as("retries per second through one bucket of 5/s for both controllers")
                    .isBetween(2.5, 6.5);
            assertThat(a.totalAttempts()).isGreaterThan(3);
            assertThat(b.totalAttempts()).isGreaterThan(3);
        }
    }

    @Test
    void aFailingResourceReceivingAStreamOfEventsIsRetriedNoFasterThanItsBackoff() throws InterruptedException {
        String ns = namespace("limiter-hot-loop");
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.FAIL, Duration.ZERO);
        try (KymaOperator ignored =
                start(ns, List.of(reconciler), "--failure-base-delay", "500ms", "--failure-max-delay", "500ms")) {
            create(ns, "hot", "a");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> reconciler.attempts("hot").size() >= 1);
            Instant start = Instant.now();
            int events = 0;
            while (Duration.between(start, Instant.now()).toMillis() < 3000) {
                touch(ns, "hot");
                events++;
                Thread.sleep(20);
            }
            int attempts = reconciler.attempts("hot").size();
            assertThat(events).isGreaterThan(50);
            assertThat(attempts)
                    .as("attempts in about 3 s with a 500 ms backoff, under %d events", events)
                    .isLessThanOrEqualTo(3000 / 500 + 3);
            assertThat(gaps(reconciler.attempts("hot")))
                    .allSatisfy(g -> assertThat(g.toMillis()).isGreaterThan(450));
        }
    }

    @Test
    void theClientWaitsForItsQpsAndBurst() throws InterruptedException {
        String ns = namespace("limiter-client");
        Duration slow = timeWrites(ns, "slow", 20, 30);
        Duration fast = timeWrites(ns, "fast", 150, 150);
        System.out.printf(
                "300 writes: %d ms at QPS 20 / burst 30, %d ms at QPS 150 / burst 150%n",
                slow.toMillis(), fast.toMillis());
        assertThat(slow).isGreaterThanOrEqualTo(Duration.ofMillis((300 - 30) * 1000 / 20 - 1500));
        assertThat(fast.multipliedBy(3)).isLessThan(slow);
    }

    @Test
    void aNamespaceFailingFasterThanTheBucketDelaysAnotherNamespacesRetryByAboutOneToken() {
        String noisy = namespace("limiter-fair-noisy");
        String quiet = namespace("limiter-fair-quiet");
        var reconciler = new ScriptedReconciler.Fair(
                (name, attempt) -> name.startsWith("noisy-") || attempt == 1 ? Action.FAIL : Action.SUCCEED,
                Duration.ZERO);
        // 60 objects failing for ever, retried as fast as one bucket of 5 tokens a second allows: about every 12 s.
        // First come first served, a new failure would wait about 12 s for its token; in a line of its own, 0.4 s.
        try (KymaOperator ignored = start(
                "",
                List.of(reconciler),
                "--failure-base-delay",
                "10ms",
                "--failure-max-delay",
                "10ms",
                "--rate-limiter-frequency",
                "5",
                "--rate-limiter-burst",
                "1")) {
            for (int i = 0; i < 60; i++) {
                create(noisy, "noisy-" + i, "fair");
            }
            await().atMost(Duration.ofSeconds(90)).until(() -> reconciler.totalAttempts() >= 80);
            create(quiet, "quiet", "fair");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> reconciler.attempts("quiet").size() >= 2);
            Duration retry = gaps(reconciler.attempts("quiet")).get(0);
            System.out.printf(
                    "a quiet namespace's retry behind 60 failing objects of another: %d ms%n", retry.toMillis());
            assertThat(retry)
                    .as("its retry, beside a namespace with 60 retries waiting for 5 tokens a second")
                    .isLessThan(Duration.ofSeconds(3));
        } finally {
            admin.configMaps().inNamespace(noisy).withLabel("scripted", "fair").delete();
            admin.configMaps().inNamespace(quiet).withLabel("scripted", "fair").delete();
        }
    }

    @Test
    void aNamespaceWritingAtTheClientsQpsDelaysAnotherNamespacesWriteByAboutOneToken() throws Exception {
        String busy = namespace("limiter-fair-busy");
        String other = namespace("limiter-fair-other");
        ManagerConfig config =
                ManagerConfig.parse(new String[] {"--k8s-client-qps", "10", "--k8s-client-burst", "1"}, Map.of());
        // the order in which requests leave the limiter (interceptors run in the order they were added)
        List<String> left = Collections.synchronizedList(new ArrayList<>());
        Interceptor order = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                left.add(request.uri().getRawPath().contains("/namespaces/" + other + "/") ? "other" : "busy");
            }
        };
        try (KubernetesClient client = KubernetesClients.create(
                EmbeddedControlPlane.get().config(), config.client(), new OperatorMetrics(), List.of(order))) {
            // 32 writers of one namespace keep about 32 requests waiting for 10 tokens a second: first come first
            // served, another namespace's write would leave after all of them; in a line of its own, after one.
            ExecutorService writers = Executors.newFixedThreadPool(32);
            AtomicInteger written = new AtomicInteger();
            for (int i = 0; i < 80; i++) {
                String name = "busy-" + i;
                writers.submit(() -> {
                    client.resource(configMap(busy, name, "none")).createOr(existing -> existing.update());
                    written.incrementAndGet();
                });
            }
            writers.shutdown();
            await().atMost(Duration.ofSeconds(30)).until(() -> written.get() >= 10);
            int leftBefore = left.size();
            long started = System.nanoTime();
            client.resource(configMap(other, "other", "none")).createOr(existing -> existing.update());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(writers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            int busyAhead = left.indexOf("other") - leftBefore;
            System.out.printf(
                    "another namespace's write beside 32 waiting writers: %d ms, %d busy requests ahead%n",
                    took.toMillis(), busyAhead);
            assertThat(busyAhead)
                    .as("busy requests that left between the other write's start and its own leaving")
                    .isLessThan(8);
        }
    }

    @Test
    void anUntouchedResourceIsReconciledAgainAfterTheSyncPeriod() {
        String ns = namespace("limiter-sync");
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.SUCCEED, Duration.ZERO);
        try (KymaOperator ignored = start(ns, List.of(reconciler), "--sync-period", "2s")) {
            create(ns, "idle", "a");
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> reconciler.attempts("idle").size() >= 3);
            assertThat(gaps(reconciler.attempts("idle")))
                    .allSatisfy(g -> assertThat(g.toMillis()).isBetween(1950L, 4000L));
        }
    }

    @Test
    void aReconcileRunningPastTheTimeoutIsCountedAsAnErrorAndRetried() {
        String ns = namespace("limiter-timeout");
        // The first attempt hangs for 5 s; the 500 ms timeout interrupts it.
        var slowFirst =
                new ScriptedReconciler.A((name, attempt) -> attempt == 1 ? Action.HANG : Action.SUCCEED, Duration.ZERO);
        try (KymaOperator manager =
                start(ns, List.of(slowFirst), "--reconcile-timeout", "500ms", "--failure-base-delay", "200ms")) {
            create(ns, "slow", "a");
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> slowFirst.attempts("slow").size() >= 2);
            Duration gap = gaps(slowFirst.attempts("slow")).get(0);
            assertThat(gap.toMillis())
                    .as("interrupted at 500 ms, retried 200 ms later")
                    .isBetween(650L, 3000L);
            OperatorMetrics metrics = manager.metrics();
            assertThat(metrics.registry()
                            .get("controller_runtime_reconcile_errors")
                            .tag("controller", "scripted-a")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void theSameResourceIsNeverReconciledConcurrentlyWhileDifferentOnesAre() throws InterruptedException {
        String ns = namespace("limiter-concurrency");
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.SUCCEED, Duration.ofMillis(20));
        try (KymaOperator ignored = start(ns, List.of(reconciler), "--max-concurrent-reconciles", "10")) {
            List<String> names =
                    IntStream.range(0, 30).mapToObj(i -> "busy-" + i).toList();
            names.forEach(name -> create(ns, name, "a"));
            ExecutorService hammer = Executors.newFixedThreadPool(8);
            Instant until = Instant.now().plusSeconds(3);
            for (int t = 0; t < 8; t++) {
                hammer.submit(() -> {
                    Random random = new Random();
                    while (Instant.now().isBefore(until)) {
                        touch(ns, names.get(random.nextInt(names.size())));
                    }
                });
            }
            hammer.shutdown();
            assertThat(hammer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(reconciler.totalAttempts()).isGreaterThan(names.size());
            assertThat(reconciler.maxPerResource()).isEqualTo(1);
            assertThat(reconciler.maxOverall()).isGreaterThan(1);
        }
    }

    private Duration timeWrites(String ns, String prefix, int qps, int burst) throws InterruptedException {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {"--k8s-client-qps", Integer.toString(qps), "--k8s-client-burst", Integer.toString(burst)},
                Map.of());
        try (KubernetesClient client = KubernetesClients.create(
                EmbeddedControlPlane.get().config(), config.client(), new OperatorMetrics(), List.of())) {
            ExecutorService writers = Executors.newFixedThreadPool(16);
            long started = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                String name = prefix + "-" + i;
                writers.submit(
                        () -> client.resource(configMap(ns, name, "none")).create());
            }
            writers.shutdown();
            assertThat(writers.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
            return Duration.ofNanos(System.nanoTime() - started);
        }
    }

    /**
     * The pool learns which reconcile a task is from JOSDK's metrics hook, called just before each dispatch: if a
     * JOSDK release stopped calling it so, every task would be due and this order would be lost.
     */
    @Test
    void aReconcileItsControllerSaysCanWaitRunsAfterDueOnesDispatchedAfterIt() {
        String ns = namespace("limiter-priority");
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        var reconciler = new ScriptedReconciler.A(
                (name, attempt) -> {
                    if (attempt == 1) {
                        order.add(name);
                    }
                    if (name.equals("blocker") && attempt == 1) {
                        awaitQuietly(release);
                    }
                    return Action.SUCCEED;
                },
                Duration.ZERO);
        ControllerSpec<ConfigMap> spec = new ControllerSpec<>(
                reconciler,
                new SharedStore<>(null, new BasicItemStore<>(Cache::metaNamespaceKeyFunc), 100),
                cm -> cm.getMetadata().getName().startsWith("later"),
                registered -> {},
                Optional.empty(),
                () -> {});
        try (KymaOperator manager = startSpecs(ns, config -> List.of(spec), "--max-concurrent-reconciles", "1")) {
            create(ns, "blocker", "a");
            await().atMost(Duration.ofSeconds(30)).until(() -> order.contains("blocker"));
            create(ns, "later-1", "a");
            await().atMost(Duration.ofSeconds(30)).until(() -> queued(manager, "can-wait") == 1);
            create(ns, "due-1", "a");
            create(ns, "due-2", "a");
            await().atMost(Duration.ofSeconds(30)).until(() -> queued(manager, "due") == 2);
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> order.size() == 4);
            assertThat(order).containsExactly("blocker", "due-1", "due-2", "later-1");
        } finally {
            release.countDown();
        }
    }

    private static double queued(KymaOperator manager, String priority) {
        var gauge = manager.metrics()
                .registry()
                .find("kyma_operator_reconciles_queued")
                .tag("priority", priority)
                .gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static KymaOperator start(String ns, List<Reconciler<?>> reconcilers, String... flags) {
        return startSpecs(
                ns,
                config -> ControllerSpec.plain(reconcilers, config.reconcile().temporaryCacheMax()),
                flags);
    }

    private static KymaOperator startSpecs(
            String ns, Function<ManagerConfig, List<ControllerSpec<?>>> controllers, String... flags) {
        List<String> args = new ArrayList<>(
                List.of("--metrics-bind-address", "0", "--health-probe-bind-address", "0", "--namespace", ns));
        args.addAll(List.of(flags));
        ManagerConfig config = ManagerConfig.parse(args.toArray(String[]::new), Map.of());
        KymaOperator manager = new KymaOperator(
                config,
                EmbeddedControlPlane.get().config(),
                Clock.systemUTC(),
                List.of(),
                controllers.apply(config),
                false);
        manager.start();
        return manager;
    }

    private static String namespace(String name) {
        return Namespaces.apply(admin, name);
    }

    private static void create(String ns, String name, String controller) {
        admin.resource(configMap(ns, name, controller)).create();
    }

    private static void touch(String ns, String name) {
        admin.configMaps().inNamespace(ns).withName(name).edit(cm -> {
            cm.getData().put("touched", Long.toString(System.nanoTime()));
            return cm;
        });
    }

    private static ConfigMap configMap(String ns, String name, String controller) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .addToLabels("scripted", controller)
                .endMetadata()
                .addToData("touched", "0")
                .build();
    }

    private static List<Duration> gaps(List<Instant> attempts) {
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < attempts.size(); i++) {
            gaps.add(Duration.between(attempts.get(i - 1), attempts.get(i)));
        }
        return gaps;
    }
}
