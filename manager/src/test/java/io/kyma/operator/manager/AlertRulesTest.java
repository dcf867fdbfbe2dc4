package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.testing.Crds;

/**
 * The alert rules exist once, in config/prometheus/alerts.yaml; the PrometheusRule for the Prometheus Operator is
 * generated from it ({@code -Dmanifests.write=true} rewrites it) and must not drift.
 */
class AlertRulesTest {
    private static final Path DIR = Crds.repositoryRoot().resolve("config/prometheus");
    private static final String HEADER = """
            # Generated from alerts.yaml (the groups below are its groups) by AlertRulesTest; edit alerts.yaml and run
            # mvn -pl manager test -Dtest=AlertRulesTest -Dmanifests.write=true
            apiVersion: monitoring.coreos.com/v1
            kind: PrometheusRule
            metadata:
              name: controller-manager-alerts
              namespace: system
              labels:
                app.kubernetes.io/name: kyma-operator
            spec:
            """;

    @Test
    void thePrometheusRuleCarriesTheRulesFileGroups() throws IOException {
        String alerts = Files.readString(DIR.resolve("alerts.yaml"));
        String groups = alerts.substring(alerts.indexOf("\ngroups:") + 1);
        String expected = HEADER
                + groups.lines()
                        .map(line -> line.isEmpty() ? line : "  " + line)
                        .collect(Collectors.joining("\n", "", "\n"));
        Path rule = DIR.resolve("prometheus-rule.yaml");
        if (Boolean.getBoolean("manifests.write")) {
            Files.writeString(rule, expected);
        }
        assertThat(Files.readString(rule))
                .as("prometheus-rule.yaml is generated from alerts.yaml")
                .isEqualTo(expected);
        Map<String, Object> parsedRule = Serialization.unmarshal(Files.readString(rule), Map.class);
        Map<String, Object> parsedAlerts = Serialization.unmarshal(alerts, Map.class);
        assertThat(((Map<?, ?>) parsedRule.get("spec")).get("groups")).isEqualTo(parsedAlerts.get("groups"));
    }

    @Test
    void everyRuleHasASeverityASummaryAndATestFiringAndNotFiring() throws IOException {
        Map<String, Object> alerts = Serialization.unmarshal(Files.readString(DIR.resolve("alerts.yaml")), Map.class);
        String tests = Files.readString(DIR.resolve("alerts-test.yaml"));
        List<Map<String, Object>> rules = ((List<Map<String, Object>>) alerts.get("groups"))
                .stream()
                        .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream())
                        .toList();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(7);
        for (Map<String, Object> rule : rules) {
            String name = (String) rule.get("alert");
            assertThat(((Map<?, ?>) rule.get("labels")).get("severity"))
                    .as(name)
                    .isIn("warning", "critical");
            assertThat(((Map<?, ?>) rule.get("annotations")).get("summary"))
                    .as(name)
                    .isNotNull();
            assertThat(rule.get("expr").toString())
                    .as(name + " selects the operator's job")
                    .contains("job=\"" + DashboardPanels.JOB + "\"");
            // promtool checks the cases; here: each rule has one where it fires and one where it does not
            assertThat(tests).as(name + " firing").containsPattern("alertname: " + name + "\\s+exp_alerts:\\s+- ");
            assertThat(tests).as(name + " not firing").containsPattern("alertname: " + name + "\\s+exp_alerts: \\[]");
        }
    }
}
