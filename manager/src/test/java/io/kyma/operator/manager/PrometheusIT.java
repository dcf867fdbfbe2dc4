package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.Run;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Kubectl;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.PrometheusServer;
import io.kyma.operator.testing.PrometheusServer.Series;
import io.kyma.operator.testing.ServiceAccounts;

/**
 * Debian's Prometheus scrapes a running operator the way the shipped ServiceMonitor would, with the shipped alert
 * rules loaded, while Kymas come and go; then every query of every dashboard panel must return data carrying the
 * labels its legend shows, and every alert rule must evaluate.
 * <p>
 * {@code -Dmonitoring.render=DIR} also draws each panel from Prometheus's answers into DIR (docs/monitoring);
 * {@code -Dmonitoring.hold=true} ({@code make monitoring}) keeps everything running, Prometheus on 127.0.0.1:{@code monitoring.port} (9091), until stopped.
 */
class PrometheusIT {
    private static final String NS = "kyma-prometheus";
    private static final String MONITORING = "monitoring";
    private static final String POD = "kyma-operator-controller-manager-0";
    /** A short load for the test; make monitoring and monitoring-docs ask for a longer one that a chart can show. */
    private static final int KYMAS = Integer.getInteger("monitoring.kymas", 12);

    private static final String UNIT = System.getProperty("monitoring.unit", "100ms");
    private static final Duration STEP = Duration.ofSeconds(15);

    @Test
    void prometheusScrapesTheOperatorAndEveryPanelAndRuleWorks() throws Exception {
        boolean hold = Boolean.getBoolean("monitoring.hold");
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, NS);
            // Prometheus scrapes over HTTPS with its ServiceAccount's token, as the shipped ServiceMonitor does; the
            // account holds the shipped metrics-reader ClusterRole
            Kubectl.ok(
                    "apply",
                    "-f",
                    Crds.repositoryRoot()
                            .resolve("config/rbac/metrics_reader_role.yaml")
                            .toString());
            ServiceAccounts.bind(admin, MONITORING, "prometheus", "metrics-reader");
            String token = ServiceAccounts.token(admin, MONITORING, "prometheus");
            ServiceAccounts.awaitAllowed(admin, MONITORING, "prometheus", "/metrics");
            try (RunningManager manager = new RunningManager(
                            NS,
                            "--remote-server-allow",
                            "127.0.0.1",
                            "--transition-unit",
                            UNIT,
                            "--metrics-bind-address",
                            "127.0.0.1:0",
                            "--metrics-secure");
                    PrometheusServer prometheus = PrometheusServer.start(
                            target(manager), POD, hold ? Integer.getInteger("monitoring.port", 9091) : 0, token)) {
                Instant start = Instant.now();
                // Kymas arrive a few seconds apart, so that scrapes find some in progress and some turning Ready.
                // a Run whose job service never answers (nothing listens on the discard port)
                Run run = Samples.run(NS, "unreachable", "build", Map.of(), "5s", null);
                run.getSpec().setServer("http://127.0.0.1:9");
                admin.resource(run).create();
                for (int i = 0; i < KYMAS; i++) {
                    admin.resource(Samples.kyma(NS, "kyma-" + i, Samples.MODULES))
                            .create();
                    Thread.sleep(4_000); // the arrival rate of the load, not a wait for the cluster
                }
                await().atMost(HangCatcher.LOAD)
                        .pollInterval(Duration.ofSeconds(5))
                        .until(() -> prometheus.query("sum(kyma_operator_kymas{phase=\"Ready\"})").stream()
                                .anyMatch(s -> s.samples().get(0)[1] == KYMAS));

                assertTheScrapeHasTheServiceMonitorsLabels(prometheus);
                List<String> problems = new ArrayList<>();
                Instant end = Instant.now();
                String render = System.getProperty("monitoring.render", "");
                for (DashboardPanels.Panel panel : DashboardPanels.load().panels()) {
                    List<PanelRenders.Answer> answers = new ArrayList<>();
                    for (DashboardPanels.Query query : panel.queries()) {
                        List<Series> series = prometheus.queryRange(query.promql(), start, end, STEP);
                        answers.add(new PanelRenders.Answer(query, series));
                        if (series.isEmpty()) {
                            problems.add(panel.title() + ": no data for " + query.promql());
                        }
                        for (Series s : series) {
                            if (!s.labels().keySet().containsAll(query.legendLabels())) {
                                problems.add(panel.title() + ": legend '" + query.legend() + "' needs "
                                        + query.legendLabels() + ", the series has "
                                        + s.labels().keySet());
                            }
                        }
                    }
                    if (answers.stream().flatMap(a -> a.series().stream()).noneMatch(Series::hasNumber)) {
                        problems.add(panel.title() + ": only NaN");
                    }
                    if (!render.isEmpty()) {
                        PanelRenders.render(panel, answers, start.getEpochSecond(), Path.of(render));
                    }
                }
                if (!render.isEmpty()) {
                    Files.writeString(
                            Path.of(render, "run.txt"),
                            String.format(
                                    "prometheus: %s%noperator JVM: %s %s (in the test's JVM, default flags)%n"
                                            + "load: %d Kymas of the 18 modules, one every 4 s, --transition-unit %s;"
                                            + " one Run whose job service does not answer%nscrape: every 15 s; range queries"
                                            + " at a 15 s step, $__rate_interval = %s%n",
                                    prometheus.version(),
                                    System.getProperty("java.vm.name"),
                                    System.getProperty("java.runtime.version"),
                                    KYMAS,
                                    UNIT,
                                    DashboardPanels.RATE_INTERVAL));
                }
                assertThat(problems)
                        .as("every dashboard query against a real Prometheus")
                        .isEmpty();
                assertEveryAlertRuleEvaluates(prometheus);
                if (hold) {
                    // Debian's Prometheus serves its classic web pages under /classic
                    System.out.printf(
                            "%nPrometheus: %s/classic/graph (alerts: %s/classic/alerts)%n"
                                    + "operator metrics: https://%s/metrics (a bearer token allowed to get /metrics)%n"
                                    + "Stop with Ctrl-C.%n",
                            prometheus.url(), prometheus.url(), target(manager));
                    Thread.currentThread().join();
                }
            }
        }
    }

    private static String target(RunningManager manager) {
        InetSocketAddress metrics = manager.endpoints.metricsAddress().orElseThrow();
        return metrics.getHostString() + ":" + metrics.getPort();
    }

    private static void assertTheScrapeHasTheServiceMonitorsLabels(PrometheusServer prometheus) throws Exception {
        List<JsonNode> targets = prometheus.targets();
        assertThat(targets).hasSize(1);
        JsonNode labels = targets.get(0).path("labels");
        assertThat(targets.get(0).path("health").asText()).isEqualTo("up");
        assertThat(labels.path("job").asText()).isEqualTo(DashboardPanels.JOB);
        assertThat(labels.path("namespace").asText()).isEqualTo("kyma-operator-system");
        assertThat(labels.path("service").asText()).isEqualTo(DashboardPanels.JOB);
        assertThat(labels.path("pod").asText()).isEqualTo(POD);
        assertThat(labels.path("endpoint").asText()).isEqualTo("metrics");
        assertThat(targets.get(0).path("scrapeInterval").asText()).isEqualTo("15s");
        assertThat(targets.get(0).path("scrapeUrl").asText())
                .startsWith("https://")
                .endsWith("/metrics");
    }

    private static void assertEveryAlertRuleEvaluates(PrometheusServer prometheus) {
        await().atMost(HangCatcher.STEP).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            Map<String, JsonNode> rules = prometheus.alertRules();
            assertThat(rules.keySet())
                    .containsExactlyInAnyOrder(
                            "KymaOperatorDown",
                            "KymaOperatorLeaderMissing",
                            "KymaOperatorKymaStuckProcessing",
                            "KymaOperatorRunJobServiceUnreachable",
                            "KymaOperatorReconcileErrors",
                            "KymaOperatorClientThrottled",
                            "KymaOperatorQueueWaitHigh",
                            "KymaOperatorMemoryNearLimit");
            rules.forEach((name, rule) -> {
                assertThat(rule.path("health").asText())
                        .as(name + ": " + rule.path("lastError").asText())
                        .isEqualTo("ok");
                assertThat(rule.path("lastEvaluation").asText()).as(name).doesNotStartWith("0001");
            });
            // a healthy operator that leads: neither of these may even be pending
            assertThat(rules.get("KymaOperatorDown").path("state").asText()).isEqualTo("inactive");
            assertThat(rules.get("KymaOperatorLeaderMissing").path("state").asText())
                    .isEqualTo("inactive");
            // no memory limit outside a container: the ratio has no series, the alert stays quiet
            assertThat(rules.get("KymaOperatorMemoryNearLimit").path("state").asText())
                    .isEqualTo("inactive");
            // the Run pointing at a closed port is retrying: its alert is on its way (pending for its first 10
            // minutes, firing after them, should the load take that long)
            assertThat(rules.get("KymaOperatorRunJobServiceUnreachable")
                            .path("state")
                            .asText())
                    .isIn("pending", "firing");
        });
    }
}
