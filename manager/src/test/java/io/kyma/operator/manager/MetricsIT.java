package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/** A real scrape of a running manager: every documented metric is there, moves, and the dashboard finds its own. */
class MetricsIT {
    private static final String NS = "kyma-metrics";
    private static final List<String> DOCUMENTED = List.of(
            "process_resident_memory_bytes",
            "process_virtual_memory_bytes",
            "process_cpu_seconds_total",
            "process_open_fds",
            "process_max_fds",
            "process_start_time_seconds",
            "jvm_memory_used_bytes",
            "jvm_memory_max_bytes",
            "jvm_gc_collection_seconds_count",
            "jvm_threads_current",
            "jvm_classes_currently_loaded",
            "kyma_operator_build_info",
            "kyma_operator_events_total",
            "controller_runtime_reconcile_total",
            "controller_runtime_reconcile_errors_total",
            "controller_runtime_reconcile_time_seconds_bucket",
            "controller_runtime_max_concurrent_reconciles",
            "controller_runtime_active_workers",
            "workqueue_depth",
            "workqueue_adds_total",
            "workqueue_retries_total",
            "workqueue_queue_duration_seconds_bucket",
            "rest_client_requests_total",
            "rest_client_request_duration_seconds_bucket",
            "rest_client_rate_limiter_duration_seconds_bucket",
            "kyma_operator_kymas",
            "kyma_operator_helmcomponents",
            "kyma_operator_requeue_limiter_wait_seconds_bucket",
            "kyma_operator_global_gate_wait_seconds_bucket",
            "kyma_operator_informer_lists_total",
            "kyma_operator_watch_starts_total",
            "kyma_operator_temporary_cache_entries",
            "kyma_operator_temporary_cache_refused_total",
            "kyma_operator_temporary_cache_restored_total",
            "kyma_operator_lean_cache_fallbacks_total",
            "kyma_operator_reconciles_queued",
            "workqueue_work_duration_seconds_bucket",
            "workqueue_unfinished_work_seconds",
            "workqueue_longest_running_processor_seconds",
            "controller_runtime_terminal_reconcile_errors_total",
            "kyma_operator_kyma_ready_seconds_bucket",
            "kyma_operator_runs_unreachable",
            "kyma_operator_shard",
            "kyma_operator_shard_assignments_total",
            "kyma_operator_shard_moves_total",
            "kyma_operator_shard_drains_total",
            "kyma_operator_watches_ended_early_total",
            "kyma_operator_missed_executions_total");
    /**
     * The metric families controller-runtime documents (the kubebuilder book's metrics reference) that mean something
     * for this manager; dashboards and alerts written for Go operators query these.
     */
    static final List<String> CONTROLLER_RUNTIME = List.of(
            "controller_runtime_reconcile_total",
            "controller_runtime_reconcile_errors_total",
            "controller_runtime_terminal_reconcile_errors_total",
            "controller_runtime_reconcile_time_seconds",
            "controller_runtime_max_concurrent_reconciles",
            "controller_runtime_active_workers",
            "workqueue_depth",
            "workqueue_adds_total",
            "workqueue_queue_duration_seconds",
            "workqueue_work_duration_seconds",
            "workqueue_unfinished_work_seconds",
            "workqueue_longest_running_processor_seconds",
            "workqueue_retries_total",
            "rest_client_requests_total",
            "leader_election_master_status");
    /** The rest of that list, and why this manager has no such metric. */
    static final Map<String, String> CONTROLLER_RUNTIME_NOT_HERE = Map.of(
            "controller_runtime_reconcile_panics_total",
                    "a Java reconciler throws instead of panicking; every " + "exception is a reconcile error",
            "controller_runtime_webhook_requests_total", "the manager serves no admission webhooks",
            "controller_runtime_webhook_requests_in_flight", "the manager serves no admission webhooks",
            "controller_runtime_webhook_latency_seconds", "the manager serves no admission webhooks",
            "controller_runtime_webhook_panics_total", "the manager serves no admission webhooks",
            "certwatcher_read_certificate_total", "metrics are served without a certificate",
            "certwatcher_read_certificate_errors_total", "metrics are served without a certificate");

    private static final Pattern SAMPLE =
            Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? ([^ \\n]+)", Pattern.MULTILINE);
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aScrapeDuringAKymaRunShowsEveryNameWithValuesThatMove() throws Exception {
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, NS);
            // A tight client QPS makes the client limiter's wait show; the gate is on so that its metric exists.
            try (RunningManager manager = new RunningManager(
                    NS,
                    "--transition-unit",
                    "10ms",
                    "--k8s-client-qps",
                    "5",
                    "--k8s-client-burst",
                    "5",
                    "--max-reconcile-rate",
                    "1000",
                    "--metrics-bind-address",
                    "127.0.0.1:0",
                    "--health-probe-bind-address",
                    "127.0.0.1:0")) {
                InetSocketAddress metrics = manager.endpoints.metricsAddress().orElseThrow();
                InetSocketAddress probes = manager.endpoints.probesAddress().orElseThrow();
                assertThat(get(probes, "/healthz").statusCode()).isEqualTo(200);
                await().atMost(HangCatcher.STEP)
                        .until(() -> get(probes, "/readyz").statusCode() == 200);

                admin.resource(Samples.kyma(NS, "scraped", Samples.MODULES.subList(0, 6)))
                        .create();
                await().atMost(HangCatcher.STEP)
                        .until(() -> sum(scrape(metrics), "controller_runtime_reconcile_total") > 0);
                String earlyText = scrape(metrics);
                double early = sum(earlyText, "controller_runtime_reconcile_total");

                await().atMost(HangCatcher.LOAD).until(() -> {
                    Kyma kyma = admin.resources(Kyma.class)
                            .inNamespace(NS)
                            .withName("scraped")
                            .get();
                    return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
                });
                await().atMost(HangCatcher.STEP).until(() -> sum(scrape(metrics), "workqueue_depth") == 0);

                String text = scrape(metrics);
                Set<String> names = names(text);
                assertThat(names).containsAll(DOCUMENTED);
                assertThat(sum(text, "controller_runtime_reconcile_total")).isGreaterThan(early);
                assertThat(sum(text, "rest_client_rate_limiter_duration_seconds_sum"))
                        .isGreaterThan(0);
                assertThat(sum(text, "rest_client_requests_total")).isGreaterThan(0);
                assertThat(sample(text, "kyma_operator_kymas", "phase=\"Ready\""))
                        .isEqualTo(1.0);
                assertThat(sum(text, "kyma_operator_kyma_ready_seconds_count"))
                        .as("one Kyma turned Ready")
                        .isEqualTo(1.0);
                // one informer per kind, each listed once at start: HelmComponents are not watched twice
                for (String kind : List.of("helmcomponents", "kymas", "runs")) {
                    assertThat(sample(text, "kyma_operator_informer_lists_total", "resource=\"" + kind + "\""))
                            .as("lists of " + kind)
                            .isEqualTo(1.0);
                    assertThat(sample(text, "kyma_operator_watch_starts_total", "resource=\"" + kind + "\""))
                            .as("watches of " + kind)
                            .isGreaterThanOrEqualTo(1.0);
                }
                assertThat(sample(text, "kyma_operator_helmcomponents", "state=\"success\""))
                        .isEqualTo(6.0);
                assertThat(sum(text, "kyma_operator_lean_cache_fallbacks_total"))
                        .isZero();
                assertThat(sum(text, "kyma_operator_missed_executions_total")).isZero();
                assertThat(sum(text, "process_resident_memory_bytes")).isGreaterThan(0);
                assertThat(text)
                        .as("the build's version and commit")
                        .containsPattern("kyma_operator_build_info\\{commit=\"[0-9a-f]{7}\",version=\"[0-9.]+\"\\} 1");
                await().atMost(HangCatcher.STEP)
                        .until(() ->
                                sample(scrape(metrics), "kyma_operator_events_total", "outcome=\"created\"") >= 2.0);
                // once the watches have delivered every write, nothing is held for read after write
                await().atMost(HangCatcher.STEP)
                        .until(() -> sum(scrape(metrics), "kyma_operator_temporary_cache_entries") == 0);
                assertThat(sum(text, "kyma_operator_temporary_cache_refused_total"))
                        .isZero();
                assertThat(sample(text, "controller_runtime_max_concurrent_reconciles", "controller=\"kyma\""))
                        .isEqualTo(50.0);

                // controller-runtime's families: a histogram's family is there when its _bucket series are
                assertThat(CONTROLLER_RUNTIME)
                        .allSatisfy(family -> assertThat(names)
                                .as("controller-runtime's " + family)
                                .containsAnyOf(family, family + "_bucket"));
                assertThat(names)
                        .as("rest_client_request_duration_seconds by verb and host")
                        .anyMatch(n -> n.equals("rest_client_request_duration_seconds_bucket"));
                assertThat(text).containsPattern("rest_client_request_duration_seconds_bucket\\{[^}]*host=\"");
                assertThat(CONTROLLER_RUNTIME_NOT_HERE.keySet()).doesNotContainAnyElementsOf(names);

                Set<String> queried = dashboardMetrics();
                assertThat(queried).hasSizeGreaterThan(10);
                // the slowest Kymas that are not Ready are there while the Kyma is in progress
                assertThat(names(earlyText)).contains("kyma_operator_unready_kymas_age_seconds");
                Set<String> seen = new TreeSet<>(names);
                seen.addAll(names(earlyText));
                assertThat(seen)
                        .as("every metric the dashboard queries is in a real scrape")
                        .containsAll(queried);
            }
        }
    }

    /** The metric names in the expressions of the Grafana dashboard. */
    static Set<String> dashboardMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(Files.readString(Crds.repositoryRoot().resolve("config/prometheus/grafana-dashboard.json")));
        Set<String> metrics = new TreeSet<>();
        Pattern name = Pattern.compile("\\b((?:controller_runtime|workqueue|rest_client|kyma_operator)_[a-z_]+)\\b");
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                Matcher m = name.matcher(target.get("expr").asText());
                while (m.find()) {
                    metrics.add(m.group(1));
                }
            }
        }
        return metrics;
    }

    private HttpResponse<String> get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + address.getHostString() + ":" + address.getPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String scrape(InetSocketAddress address) throws IOException, InterruptedException {
        HttpResponse<String> response = get(address, "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static Set<String> names(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static double sum(String text, String metric) {
        double total = 0;
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(metric)) {
                total += Double.parseDouble(m.group(3));
            }
        }
        return total;
    }

    private static double sample(String text, String metric, String label) {
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(metric) && m.group(2) != null && m.group(2).contains(label)) {
                return Double.parseDouble(m.group(3));
            }
        }
        return Double.NaN;
    }
}
