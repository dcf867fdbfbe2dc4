package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
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
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.manager.ScriptedReconciler.Action;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.guard.ReconcileGuard;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;
import io.micrometer.core.instrument.Timer;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * The shared limiters, the concurrency guarantee, the sync period and the reconcile timeout, each with scripted
 * ConfigMap controllers run through the manager's real wiring.
 * <p>
 * What these tests assert holds on a machine of any speed: a retry or a write no sooner than the limiter allows,
 * never more of them than its tokens, the delays the limiter itself gives and the waits it itself reports, the order in
 * which requests leave it. A slow machine only makes things later, so no test has an upper bound on a duration it
 * measures; the deadlines of the waits ({@link HangCatcher}) only catch hangs. Measured durations are printed, and
 * exact figures belong in the benchmark.
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
        try (KymaOperator manager =
                start(ns, List.of(reconciler), "--failure-base-delay", "200ms", "--failure-max-delay", "10s")) {
            create(ns, "flaky", "a");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("flaky").size() >= 6);
            List<Duration> gaps = gaps(reconciler.attempts("flaky"));
            System.out.printf("gaps between the attempts of a resource failing 5 times: %s%n", gaps);
            // the delays the limiter gave, as it reports them: exactly the doubling backoff
            Timer given = manager.metrics().requeueLimiterWait();
            assertThat(given.count()).as("delays given").isEqualTo(5);
            assertThat(given.totalTime(TimeUnit.MILLISECONDS))
                    .as("the delays given, in all")
                    .isCloseTo(200 + 400 + 800 + 1600 + 3200, within(0.5));
            // and each retry waited for its delay (the clocks of the attempts and of the limiter may differ by 20 ms)
            long[] expected = {200, 400, 800, 1600, 3200};
            for (int i = 0; i < expected.length; i++) {
                assertThat(gaps.get(i).toMillis())
                        .as("delay after failure %d", i + 1)
                        .isGreaterThanOrEqualTo(expected[i] - 20);
            }

            // Success forgot the backoff: the next failure is given the base delay again, not 6.4 s.
            failUntil.put("flaky", 7);
            touch(ns, "flaky");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("flaky").size() >= 8);
            assertThat(given.count()).as("delays given").isEqualTo(6);
            assertThat(given.totalTime(TimeUnit.MILLISECONDS))
                    .as("the delays given, in all: the sixth one the base delay")
                    .isCloseTo(6200 + 200, within(0.5));
            assertThat(gaps(reconciler.attempts("flaky")).get(6).toMillis()).isGreaterThanOrEqualTo(180L);
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
            await().atMost(HangCatcher.STEP).until(() -> a.totalAttempts() + b.totalAttempts() >= 30);
            List<Instant> all = new ArrayList<>();
            List<Instant> first = new ArrayList<>();
            for (ScriptedReconciler reconciler : List.of(a, b)) {
                for (int i = 0; i < 3; i++) {
                    List<Instant> attempts = reconciler.attempts((reconciler == a ? "a-" : "b-") + i);
                    all.addAll(attempts);
                    first.add(attempts.get(0));
                }
            }
            Collections.sort(all);
            // The bucket grants a token no sooner than it accrues: by the 30th attempt, at most its burst and 5 a
            // second since the first failure. A retry waits for its token, so those retries took at least
            // (retries - burst) / 5 s; a bucket for each controller would have let them through in half of that. A
            // slow machine only makes them later.
            Instant thirtieth = all.get(29);
            long retries =
                    30 - first.stream().filter(f -> !f.isAfter(thirtieth)).count();
            Duration took = Duration.between(all.get(0), thirtieth);
            System.out.printf(
                    "%d retries of two controllers through one bucket of 5/s: %d ms%n", retries, took.toMillis());
            assertThat(took)
                    .as("%d retries through one bucket of 5 a second, burst 1, for both controllers", retries)
                    .isGreaterThanOrEqualTo(Duration.ofMillis((retries - 1) * 1000 / 5 - 100));
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
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("hot").size() >= 1);
            // a stream of events, at least 3 s long: however slow each edit, as many of them
            int events = 150;
            for (int i = 0; i < events; i++) {
                touch(ns, "hot");
                Thread.sleep(20);
            }
            List<Instant> attempts = List.copyOf(reconciler.attempts("hot"));
            Duration streamed = Duration.between(attempts.get(0), Instant.now());
            System.out.printf(
                    "%d events in %d ms: %d attempts of a resource failing with a 500 ms backoff%n",
                    events, streamed.toMillis(), attempts.size());
            // at least 450 ms apart, however many events came: the backoff holds under a stream of them
            assertThat(gaps(attempts)).allSatisfy(g -> assertThat(g.toMillis()).isGreaterThan(450));
        }
    }

    /**
     * The limiter's own account of its waits, not the writes' wall time, tells the two settings apart: the wall time
     * at QPS 150 is mostly the API server's, which on a slow machine can take as long as the limiter at QPS 20. The
     * waits at QPS 150 / burst 150 are at most the 16 writers' for (300 - 150) / 150 s, 16 s in all; at QPS 20 /
     * burst 30 they are about 16 writers' for 13.5 s, 216 s in all. A slow machine sends the writes more slowly, and
     * the limiter has less to make them wait for.
     */
    @Test
    void theClientWaitsForItsQpsAndBurst() throws InterruptedException {
        String ns = namespace("limiter-client");
        Writes slow = timeWrites(ns, "slow", 20, 30);
        Writes fast = timeWrites(ns, "fast", 150, 150);
        System.out.printf(
                "300 writes: %d ms at QPS 20 / burst 30 (the limiter's waits %d ms in all), %d ms at QPS 150 / burst"
                        + " 150 (waits %d ms in all)%n",
                slow.took().toMillis(),
                slow.waited().toMillis(),
                fast.took().toMillis(),
                fast.waited().toMillis());
        assertThat(slow.took()).isGreaterThanOrEqualTo(Duration.ofMillis((300 - 30) * 1000 / 20 - 1500));
        Duration waitedFast = fast.waited();
        Duration waitedSlow = slow.waited();
        assertThat(waitedFast.multipliedBy(3))
                .as("the limiter's waits at QPS 150 / burst 150, three times, against those at QPS 20 / burst 30")
                .isLessThan(waitedSlow);
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
        try (GivenDelays delays = new GivenDelays();
                KymaOperator ignored = start(
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
            await().atMost(HangCatcher.STEP).until(() -> reconciler.totalAttempts() >= 80);
            create(quiet, "quiet", "fair");
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("quiet").size() >= 2);
            Duration retry = gaps(reconciler.attempts("quiet")).get(0);
            Duration given = delays.given(quiet + "/quiet").get(0);
            System.out.printf(
                    "a quiet namespace's retry behind 60 failing objects of another: given %d ms, came after %d ms%n",
                    given.toMillis(), retry.toMillis());
            // The delay the limiter gives is its arithmetic, the same on any machine: the tokens ahead of the retry
            // at 5 a second. In a line of its own, one token of the noisy namespace is ahead (0.4 s at most); first
            // come first served, the 60 retries waiting (12 s).
            assertThat(given)
                    .as(
                            "the delay given to its retry, beside a namespace with 60 retries waiting for 5 tokens a second")
                    .isLessThan(Duration.ofSeconds(1));
            assertThat(retry).as("the retry waited for its token").isGreaterThanOrEqualTo(given.minusMillis(20));
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
            await().atMost(HangCatcher.STEP).until(() -> written.get() >= 10);
            int leftBefore = left.size();
            long started = System.nanoTime();
            client.resource(configMap(other, "other", "none")).createOr(existing -> existing.update());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(writers.awaitTermination(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
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
            // that the resource is reconciled again at all is the wait; that it is not before its time, the bound
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.attempts("idle").size() >= 3);
            List<Duration> gaps = gaps(reconciler.attempts("idle"));
            System.out.printf("an untouched resource with a 2 s sync period: reconciled again after %s%n", gaps);
            assertThat(gaps).allSatisfy(g -> assertThat(g.toMillis()).isGreaterThanOrEqualTo(1950L));
        }
    }

    @Test
    void aReconcileRunningPastTheTimeoutIsCountedAsAnErrorAndRetried() {
        String ns = namespace("limiter-timeout");
        // The first attempt would hang for 5 s; the 500 ms timeout interrupts it.
        var slowFirst =
                new ScriptedReconciler.A((name, attempt) -> attempt == 1 ? Action.HANG : Action.SUCCEED, Duration.ZERO);
        try (KymaOperator manager =
                start(ns, List.of(slowFirst), "--reconcile-timeout", "500ms", "--failure-base-delay", "200ms")) {
            create(ns, "slow", "a");
            await().atMost(HangCatcher.STEP)
                    .until(() -> slowFirst.attempts("slow").size() >= 2);
            Duration gap = gaps(slowFirst.attempts("slow")).get(0);
            System.out.printf("a reconcile hanging past a 500 ms timeout: retried after %d ms%n", gap.toMillis());
            assertThat(slowFirst.interrupted("slow"))
                    .as("the hanging attempt was interrupted, not left to end by itself")
                    .isEqualTo(1);
            assertThat(gap.toMillis())
                    .as("interrupted at 500 ms, retried 200 ms later")
                    .isGreaterThanOrEqualTo(650L);
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
        // each attempt busy for 100 ms, so that attempts of different resources overlap however slowly events come
        var reconciler = new ScriptedReconciler.A((name, attempt) -> Action.SUCCEED, Duration.ofMillis(100));
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
            assertThat(hammer.awaitTermination(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            // the edits' reconciles may still be on their way
            await().atMost(HangCatcher.STEP)
                    .until(() -> reconciler.totalAttempts() > names.size() && reconciler.maxOverall() > 1);
            assertThat(reconciler.maxPerResource()).isEqualTo(1);
        }
    }

    /** How long 300 writes took, and how long they waited for the client's limiter in all, as it reports. */
    private record Writes(Duration took, Duration waited) {}

    private Writes timeWrites(String ns, String prefix, int qps, int burst) throws InterruptedException {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {"--k8s-client-qps", Integer.toString(qps), "--k8s-client-burst", Integer.toString(burst)},
                Map.of());
        OperatorMetrics metrics = new OperatorMetrics();
        try (KubernetesClient client =
                KubernetesClients.create(EmbeddedControlPlane.get().config(), config.client(), metrics, List.of())) {
            ExecutorService writers = Executors.newFixedThreadPool(16);
            long started = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                String name = prefix + "-" + i;
                writers.submit(
                        () -> client.resource(configMap(ns, name, "none")).create());
            }
            writers.shutdown();
            assertThat(writers.awaitTermination(HangCatcher.LOAD.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            Timer waits = metrics.restRateLimiterDuration();
            assertThat(waits.count()).as("requests through the limiter").isEqualTo(300);
            return new Writes(took, Duration.ofNanos((long) waits.totalTime(TimeUnit.NANOSECONDS)));
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
            await().atMost(HangCatcher.STEP).until(() -> order.contains("blocker"));
            create(ns, "later-1", "a");
            await().atMost(HangCatcher.STEP).until(() -> queued(manager, "can-wait") == 1);
            create(ns, "due-1", "a");
            create(ns, "due-2", "a");
            await().atMost(HangCatcher.STEP).until(() -> queued(manager, "due") == 2);
            release.countDown();
            await().atMost(HangCatcher.STEP).until(() -> order.size() == 4);
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
            latch.await(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);
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

    /**
     * The delays the manager gives failed reconciles, by resource ({@code namespace/name}), in order: what the
     * requeue limiter answered, as the reconcile guard logs it with each failure.
     */
    private static final class GivenDelays implements AutoCloseable {
        private final Logger logger = (Logger) LoggerFactory.getLogger(ReconcileGuard.class);
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

        GivenDelays() {
            appender.start();
            logger.addAppender(appender);
        }

        List<Duration> given(String resource) {
            List<ILoggingEvent> events;
            synchronized (appender) { // appending holds the appender's lock
                events = new ArrayList<>(appender.list);
            }
            List<Duration> delays = new ArrayList<>();
            for (ILoggingEvent event : events) {
                Object[] args = event.getArgumentArray();
                // "{kind} {namespace/name}: {what} (attempt {n}), retrying in {delay}: {failure}"
                if (event.getMessage().contains("{} (attempt {}), retrying in {}")
                        && args != null
                        && args.length > 4
                        && resource.equals(args[1])
                        && "reconcile failed".equals(args[2])) {
                    delays.add(GoDuration.parse(String.valueOf(args[4]))); // written by GoDuration.format
                }
            }
            assertThat(delays).as("delays logged for %s", resource).isNotEmpty();
            return delays;
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
            appender.stop();
        }
    }

    private static List<Duration> gaps(List<Instant> attempts) {
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < attempts.size(); i++) {
            gaps.add(Duration.between(attempts.get(i - 1), attempts.get(i)));
        }
        return gaps;
    }
}
