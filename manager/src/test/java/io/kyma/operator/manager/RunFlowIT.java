package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * The Run controller through the manager's wiring, against the real job service. The waits' deadlines only catch
 * hangs ({@link HangCatcher}); what is asserted about time holds on a machine of any speed.
 */
class RunFlowIT {
    private static KubernetesClient admin;
    private static JobServer server;

    @BeforeAll
    static void setUp() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        server = JobServer.start("127.0.0.1", 0);
    }

    @AfterAll
    static void tearDown() {
        server.close();
        admin.close();
    }

    @Test
    void runsSucceedFailAndTimeOut() {
        String ns = namespace("run-outcomes");
        try (RunningManager manager = manager(ns, server.url())) {
            create(Samples.run(
                    ns, "ok", "build", Map.of("durationSeconds", "2", "linesPerSecond", "4"), "200ms", null));
            create(Samples.run(ns, "broken", "build", Map.of("durationSeconds", "1", "fail", "true"), "200ms", null));
            create(Samples.run(ns, "slow", "build", Map.of("durationSeconds", "600"), "200ms", "2s"));
            create(Samples.run(ns, "refused", "build", Map.of("reject", "quota exceeded"), "200ms", null));

            Run ok = awaitPhase(ns, "ok", RunPhase.SUCCEEDED);
            assertThat(ok.getStatus().getLogs()).contains("job build started", "step 8", "job build succeeded");
            assertThat(ok.getStatus().getCompletionTime()).isNotNull();
            assertThat(ok.getStatus().getRemoteId()).isNotBlank();
            assertThat(ok.getStatus().getMessage())
                    .isEqualTo("job succeeded: " + lastLine(ok.getStatus().getLogs()));

            Run broken = awaitPhase(ns, "broken", RunPhase.FAILED);
            assertThat(broken.getStatus().getLogs()).contains("job build failed");

            Run slow = awaitPhase(ns, "slow", RunPhase.FAILED);
            assertThat(slow.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Succeeded");
                assertThat(c.getReason()).isEqualTo("Timeout");
            });
            assertThat(jobState(slow.getStatus().getRemoteId())).isEqualTo("failed");

            Run refused = awaitPhase(ns, "refused", RunPhase.FAILED);
            assertThat(refused.getStatus().getMessage()).contains("quota exceeded");
            assertThat(refused.getStatus().getRemoteId()).isNull();
        }
    }

    @Test
    void pollingCostsAboutOneReconcilePerIntervalAndWritesOnlyChanges() {
        String ns = namespace("run-polling");
        try (RunningManager manager = manager(ns, server.url())) {
            // 3 s of job, polled every 500 ms, with a log that does not grow while it runs.
            long created = System.nanoTime();
            long callsBefore = server.requests();
            create(Samples.run(
                    ns, "quiet", "build", Map.of("durationSeconds", "3", "linesPerSecond", "0.01"), "500ms", null));
            awaitPhase(ns, "quiet", RunPhase.SUCCEEDED);
            Duration took = Duration.ofNanos(System.nanoTime() - created);
            double reconciles = manager
                    .manager
                    .metrics()
                    .registry()
                    .get("controller_runtime_reconcile")
                    .tag("controller", "run")
                    .counters()
                    .stream()
                    .mapToDouble(c -> c.count())
                    .sum();
            long statusWrites = manager.requests.requests().stream()
                    .filter(r -> r.isWrite()
                            && r.name().equals("quiet")
                            && r.subresource().equals("status"))
                    .count();
            System.out.printf(
                    "Run of 3 s polled every 500 ms: Succeeded after %d ms, %.0f reconciles, %d status writes%n",
                    took.toMillis(), reconciles, statusWrites);
            // One reconcile per answer of the job service (the start's and each poll's), besides the create's and
            // the status writes': counted, so a slow machine that makes the Run take longer changes nothing.
            long calls = server.requests() - callsBefore;
            assertThat(reconciles)
                    .as("reconciles of a Run whose job service answered %d calls", calls)
                    .isGreaterThanOrEqualTo(3.0)
                    .isLessThanOrEqualTo(calls + 2 + statusWrites);
            assertThat(statusWrites).as("started, the first log, and the end").isLessThanOrEqualTo(3);
        }
    }

    @Test
    void aServerThatIsDownAtFirstDelaysTheRunWithoutFailingItOrSpinning() throws IOException {
        String ns = namespace("run-outage");
        int port = freePort();
        List<String> reachability = new CopyOnWriteArrayList<>();
        try (RunningManager manager = manager(ns, "http://127.0.0.1:" + port, "--failure-base-delay", "500ms");
                Watch ignored = watchReachability(ns, "patient", reachability)) {
            create(Samples.run(ns, "patient", "build", Map.of("durationSeconds", "1"), "200ms", null));
            // the service comes up 2 s after the Run said it could not reach it, however long the start took
            await().atMost(HangCatcher.STEP).until(() -> reachability.contains("False"));
            try (JobServer late = JobServer.startAfter("127.0.0.1", port, Duration.ofSeconds(2))) {
                Run done = awaitPhase(ns, "patient", RunPhase.SUCCEEDED);
                assertThat(reachability).startsWith("False").endsWith("True");
                assertThat(reachable(done)).isEqualTo("True");
                double errors = manager.manager
                        .metrics()
                        .registry()
                        .get("controller_runtime_reconcile_errors")
                        .tag("controller", "run")
                        .counter()
                        .count();
                assertThat(errors)
                        .as("the service's failure is not the reconcile's")
                        .isZero();
                double failed = manager.manager
                        .metrics()
                        .registry()
                        .get("kyma_operator_job_calls_finished")
                        .tag("outcome", "failed")
                        .functionCounter()
                        .count();
                assertThat(failed)
                        .as("attempts while down, with a 500 ms doubling backoff")
                        .isBetween(1.0, 6.0);
                assertThat(late.jobsStarted()).isEqualTo(1);
            }
        }
    }

    /**
     * A service that accepts connections and never answers holds job-service calls, not reconcile workers: with two
     * workers and twenty such Runs, a Kyma becomes Ready as if they were not there. Were the workers held, the Kyma
     * could not be Ready before the calls' 1 minute timeout freed them: so it must be Ready while every call still
     * hangs, none ended. That is an order, the same on any machine; how long it took is printed.
     */
    @Test
    void aServiceThatNeverAnswersHoldsNoReconcileWorker() throws IOException {
        String runs = namespace("run-hanging");
        String kymas = runs;
        try (ServerSocket silent = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
                RunningManager manager = new RunningManager(
                        runs,
                        "--remote-server-allow",
                        "127.0.0.1",
                        "--max-concurrent-reconciles",
                        "2",
                        "--remote-request-timeout",
                        "1m",
                        "--transition-unit",
                        "50ms")) {
            String url = "http://127.0.0.1:" + silent.getLocalPort();
            for (int i = 0; i < 20; i++) {
                Run run = Samples.run(runs, "hanging-" + i, "build", Map.of(), "1s", null);
                run.getSpec().setServer(url);
                create(run);
            }
            var registry = manager.manager.metrics().registry();
            await().atMost(HangCatcher.STEP)
                    .until(() -> registry.get("kyma_operator_job_calls")
                                    .tag("state", "waiting")
                                    .gauge()
                                    .value()
                            == 16);
            assertThat(registry.get("kyma_operator_job_calls")
                            .tag("state", "in-flight")
                            .gauge()
                            .value())
                    .as("--remote-max-in-flight-per-server")
                    .isEqualTo(4);
            long created = System.nanoTime();
            admin.resource(Samples.kyma(kymas, "neighbour", List.of("istio", "ory", "rafter")))
                    .create();
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        var kyma = admin.resources(Kyma.class)
                                .inNamespace(kymas)
                                .withName("neighbour")
                                .get();
                        return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
                    });
            Duration took = Duration.ofNanos(System.nanoTime() - created);
            double ended = registry.find("kyma_operator_job_calls_finished").functionCounters().stream()
                    .mapToDouble(c -> c.count())
                    .sum();
            System.out.printf(
                    "A Kyma of 3 modules at a 50 ms unit beside 20 Runs on a silent service, 2 workers:"
                            + " Ready after %d ms, %.0f calls ended%n",
                    took.toMillis(), ended);
            assertThat(ended)
                    .as("calls to the silent service that ended before the Kyma was Ready")
                    .isZero();
            assertThat(registry.get("kyma_operator_job_calls")
                            .tag("state", "in-flight")
                            .gauge()
                            .value())
                    .as("the calls still hang")
                    .isEqualTo(4);
        }
    }

    @Test
    void anOperatorKilledRightAfterStartingTheJobStartsNoSecondOne() throws Exception {
        String ns = namespace("run-restart");
        Path kubeconfig = Files.createTempFile("kubeconfig", ".yaml");
        Files.writeString(kubeconfig, EmbeddedControlPlane.get().kubeconfigYaml());
        long before = server.jobsStarted();
        // the job is started, the answer comes late: after the kill, however long the kill takes to follow the start
        server.faults().latency(HangCatcher.STEP);
        Process operator = new ProcessBuilder(
                        "java",
                        "-jar",
                        "target/kyma-operator.jar",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--namespace",
                        ns,
                        "--remote-server-url",
                        server.url(),
                        "--metrics-bind-address",
                        "0",
                        "--health-probe-bind-address",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(Files.createTempFile("operator", ".log").toFile())
                .start();
        try {
            create(Samples.run(ns, "once", "build", Map.of("durationSeconds", "1"), "200ms", null));
            await().atMost(HangCatcher.STEP).until(() -> server.jobsStarted() == before + 1);
            operator.destroyForcibly().waitFor();
        } finally {
            operator.destroyForcibly();
            server.faults().latency(Duration.ZERO);
        }
        assertThat(admin.resources(Run.class)
                        .inNamespace(ns)
                        .withName("once")
                        .get()
                        .getStatus())
                .isNull();
        try (RunningManager restarted = manager(ns, server.url())) {
            awaitPhase(ns, "once", RunPhase.SUCCEEDED);
        }
        assertThat(server.jobsStarted())
                .as("jobs started for the Run, across both operators")
                .isEqualTo(before + 1);
    }

    @Test
    void deletingARunCancelsItsJobAndAnUnreachableServerDelaysDeletionOnlyUntilTheCleanupTimeout() {
        String ns = namespace("run-delete");
        try (RunningManager manager = manager(ns, server.url(), "--run-cleanup-timeout", "3s")) {
            create(Samples.run(ns, "cancelled", "build", Map.of("durationSeconds", "600"), "200ms", null));
            String id =
                    awaitPhase(ns, "cancelled", RunPhase.RUNNING).getStatus().getRemoteId();
            admin.resources(Run.class).inNamespace(ns).withName("cancelled").delete();
            await().atMost(HangCatcher.STEP).until(() -> get(ns, "cancelled") == null);
            assertThat(jobState(id)).isEqualTo("failed");

            create(Samples.run(ns, "orphaned", "build", Map.of("durationSeconds", "600"), "200ms", null));
            awaitPhase(ns, "orphaned", RunPhase.RUNNING);
            // refused until the test is done, however long the 3 s cleanup timeout and its retries take
            server.refuseFor(HangCatcher.LOAD);
            long deleted = System.nanoTime();
            admin.resources(Run.class).inNamespace(ns).withName("orphaned").delete();
            await().atMost(HangCatcher.STEP).until(() -> get(ns, "orphaned") == null);
            // The timeout counts from deletionTimestamp, which has whole seconds: up to 1 s of it may lie before
            // the delete request.
            assertThat(Duration.ofNanos(System.nanoTime() - deleted)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
            // events go out in the background, a moment after the Run went
            await().atMost(HangCatcher.STEP)
                    .untilAsserted(() -> assertThat(
                                    admin.v1().events().inNamespace(ns).list().getItems())
                            .anySatisfy(e -> {
                                assertThat(e.getType()).isEqualTo("Warning");
                                assertThat(e.getReason()).isEqualTo("RemoteCleanupAbandoned");
                                assertThat(e.getInvolvedObject().getName()).isEqualTo("orphaned");
                            }));
        } finally {
            server.listenAgain();
        }
    }

    /** How long it takes is the benchmark's figure; this test prints it, and its deadline only catches a hang. */
    @Test
    void aThousandRunsWithAHundredWorkersAllCompleteWithinTheirWriteBudget() {
        String ns = namespace("run-scale");
        int runs = 1000;
        int durationSeconds = 10;
        try (RunningManager manager = manager(
                ns,
                server.url(),
                "--max-concurrent-reconciles",
                "100",
                "--k8s-client-qps",
                "150",
                "--k8s-client-burst",
                "150")) {
            long started = System.nanoTime();
            IntStream.range(0, runs)
                    .parallel()
                    .forEach(i -> create(Samples.run(
                            ns,
                            "scale-" + i,
                            "batch",
                            Map.of("durationSeconds", Integer.toString(durationSeconds)),
                            "1s",
                            null)));
            await().atMost(HangCatcher.LOAD)
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> admin.resources(Run.class).inNamespace(ns).list().getItems().stream()
                                    .filter(r -> r.getStatus() != null
                                            && r.getStatus().getPhase() == RunPhase.SUCCEEDED)
                                    .count()
                            == runs);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            await().atMost(HangCatcher.STEP)
                    .until(() -> manager.manager
                                    .metrics()
                                    .registry()
                                    .get("workqueue_depth")
                                    .tag("name", "run")
                                    .gauge()
                                    .value()
                            == 0);

            Map<String, Long> writesPerRun = new HashMap<>();
            manager.requests.requests().stream()
                    .filter(r -> r.isWrite()
                            && r.resource().equals("runs")
                            && r.subresource().equals("status"))
                    .forEach(r -> writesPerRun.merge(r.name(), 1L, Long::sum));
            long max = writesPerRun.values().stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(0);
            System.out.printf(
                    "%d Runs of %d s polled every 1 s with 100 workers at QPS 150: all succeeded %d s after"
                            + " the first create; status writes per Run: max %d, mean %.1f%n",
                    runs,
                    durationSeconds,
                    took.toSeconds(),
                    max,
                    writesPerRun.values().stream()
                            .mapToLong(Long::longValue)
                            .average()
                            .orElse(0));
            assertThat(writesPerRun).hasSize(runs);
            assertThat(max).as("at most 2 + D/P status writes per Run").isLessThanOrEqualTo(2 + durationSeconds);
        }
    }

    private static RunningManager manager(String ns, String serverUrl, String... flags) {
        List<String> args = new ArrayList<>(List.of("--remote-server-url", serverUrl, "--failure-base-delay", "200ms"));
        args.addAll(List.of(flags));
        return new RunningManager(ns, args.toArray(String[]::new));
    }

    private static Watch watchReachability(String ns, String name, List<String> seen) {
        return admin.resources(Run.class).inNamespace(ns).withName(name).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Run run) {
                String value = reachable(run);
                if (value != null
                        && (seen.isEmpty() || !seen.get(seen.size() - 1).equals(value))) {
                    seen.add(value);
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
    }

    private static String reachable(Run run) {
        return run.getStatus() == null
                ? null
                : run.getStatus().getConditions().stream()
                        .filter(c -> c.getType().equals("RemoteReachable"))
                        .map(Condition::getStatus)
                        .findFirst()
                        .orElse(null);
    }

    private static String jobState(String id) {
        try {
            var http = HttpClient.newHttpClient();
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(server.url() + "/jobs/" + id))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            return new ObjectMapper().readTree(body).get("state").asText();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Run awaitPhase(String ns, String name, RunPhase phase) {
        await().atMost(HangCatcher.STEP).pollInterval(Duration.ofMillis(100)).until(() -> {
            Run run = get(ns, name);
            return run != null && run.getStatus() != null && run.getStatus().getPhase() == phase;
        });
        return get(ns, name);
    }

    private static Run get(String ns, String name) {
        return admin.resources(Run.class).inNamespace(ns).withName(name).get();
    }

    private static void create(Run run) {
        admin.resource(run).create();
    }

    private static String namespace(String name) {
        return Namespaces.apply(admin, name);
    }

    private static String lastLine(String log) {
        String[] lines = log.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
