package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.Kubectl;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.SizingRun;

/** config/default renders with kustomize and the API server accepts every object of it (server-side dry run). */
class DeployManifestsIT {
    private static String rendered;
    private static List<HasMetadata> objects;

    @BeforeAll
    static void render() throws Exception {
        rendered = Kubectl.ok(
                "kustomize", Crds.repositoryRoot().resolve("config/default").toString());
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            objects = client.load(new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8)))
                    .items();
        }
    }

    @Test
    void everyObjectButThePrometheusOperatorsPassesAServerSideDryRun() throws Exception {
        assertThat(objects)
                .extracting(HasMetadata::getKind)
                .contains(
                        "Namespace",
                        "CustomResourceDefinition",
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Role",
                        "RoleBinding",
                        "Deployment",
                        "Service",
                        "ConfigMap",
                        "ServiceMonitor",
                        "PrometheusRule");
        // The embedded API server (v1.20) serves PodDisruptionBudgets as policy/v1beta1, whose spec is the same.
        String withoutMonitor = String.join(
                "\n---\n",
                objects.stream()
                        .filter(o -> !o.getKind().equals("ServiceMonitor")
                                && !o.getKind().equals("PrometheusRule"))
                        .map(Serialization::asYaml)
                        .map(yaml -> yaml.replace("apiVersion: \"policy/v1\"", "apiVersion: \"policy/v1beta1\""))
                        .toList());
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            // A dry run creates nothing, so the namespaced objects need their namespace for real.
            Namespaces.apply(client, "kyma-operator-system");
        }
        Path manifest = Files.createTempFile("deploy", ".yaml");
        Files.writeString(manifest, withoutMonitor);
        String out = Kubectl.ok(
                "apply", "--server-side", "--force-conflicts", "--dry-run=server", "-f", manifest.toString());
        assertThat(out)
                .contains(
                        "deployment.apps/kyma-operator-controller-manager serverside-applied (server dry run)",
                        "poddisruptionbudget.policy/kyma-operator-controller-manager serverside-applied (server dry run)",
                        "clusterrole.rbac.authorization.k8s.io/kyma-operator-manager-role serverside-applied (server dry run)");
    }

    @Test
    void theServiceMonitorUsesOnlyFieldsOfThePrometheusOperatorsV1ApiAndFindsTheMetricsPort() {
        GenericKubernetesResource monitor = (GenericKubernetesResource) only("ServiceMonitor");
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        Map<String, Object> spec = monitor.get("spec");
        // Fields of monitoring.coreos.com/v1 ServiceMonitorSpec and Endpoint (Prometheus Operator API reference).
        assertThat(spec.keySet())
                .isSubsetOf(Set.of(
                        "selector",
                        "endpoints",
                        "namespaceSelector",
                        "jobLabel",
                        "targetLabels",
                        "podTargetLabels",
                        "sampleLimit",
                        "targetLimit",
                        "attachMetadata",
                        "scrapeProtocols",
                        "labelLimit",
                        "labelNameLengthLimit",
                        "labelValueLengthLimit",
                        "keepDroppedTargets",
                        "scrapeClass",
                        "bodySizeLimit",
                        "fallbackScrapeProtocol"));
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertThat(endpoints)
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.keySet())
                        .isSubsetOf(Set.of(
                                "port",
                                "targetPort",
                                "path",
                                "scheme",
                                "params",
                                "interval",
                                "scrapeTimeout",
                                "honorLabels",
                                "honorTimestamps",
                                "relabelings",
                                "metricRelabelings",
                                "tlsConfig",
                                "bearerTokenSecret",
                                "bearerTokenFile",
                                "authorization",
                                "basicAuth",
                                "oauth2",
                                "followRedirects",
                                "enableHttp2",
                                "filterRunning",
                                "proxyUrl",
                                "trackTimestampsStaleness",
                                "noProxy",
                                "proxyFromEnvironment",
                                "proxyConnectHeader")));

        Service service = (Service) only("Service");
        Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");
        assertThat(service.getMetadata().getLabels()).containsAllEntriesOf(selector);
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getName()).contains((String)
                endpoints.get(0).get("port"));
        assertThat(endpoints.get(0).get("path")).isEqualTo("/metrics");
        // the Deployment serves /metrics with --metrics-secure: HTTPS, to Prometheus's own token
        assertThat(endpoints.get(0).get("scheme")).isEqualTo("https");
        assertThat(endpoints.get(0).get("bearerTokenFile"))
                .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount/token");
        assertThat(monitor.getMetadata().getNamespace())
                .isEqualTo(service.getMetadata().getNamespace());
    }

    @Test
    void theDeploymentRunsLockedDownWithProbesMetricsAndLeaderElection() {
        Deployment deployment = (Deployment) only("Deployment");
        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().get(0);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(container.getPorts()).extracting(p -> p.getContainerPort()).containsExactlyInAnyOrder(8443, 8081);
        assertThat(container.getArgs()).contains("--leader-elect", "--metrics-secure");
        assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(pod.getServiceAccountName()).isEqualTo("kyma-operator-controller-manager");
        Service service = (Service) only("Service");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        // Every flag the Deployment passes is one the manager knows.
        List<String> args = container.getArgs();
        ManagerConfig.parse(args.toArray(String[]::new), Map.of());
    }

    @Test
    void twoReplicasRollOutOneAtATimeAndADrainLeavesOne() {
        Deployment deployment = (Deployment) only("Deployment");
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
        assertThat(deployment
                        .getSpec()
                        .getStrategy()
                        .getRollingUpdate()
                        .getMaxUnavailable()
                        .getIntVal())
                .isZero();
        assertThat(deployment
                        .getSpec()
                        .getStrategy()
                        .getRollingUpdate()
                        .getMaxSurge()
                        .getIntVal())
                .isEqualTo(1);
        GenericKubernetesResource budget = Serialization.unmarshal(
                Serialization.asJson(only("PodDisruptionBudget")), GenericKubernetesResource.class);
        assertThat(budget.getApiVersion()).isEqualTo("policy/v1");
        assertThat(budget.getMetadata().getNamespace())
                .isEqualTo(deployment.getMetadata().getNamespace());
        assertThat((Integer) budget.get("spec", "minAvailable"))
                .isEqualTo(1)
                .isLessThan(deployment.getSpec().getReplicas());
        Map<String, String> selector = budget.get("spec", "selector", "matchLabels");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(selector);
    }

    @Test
    void theImageRunsTheJvmAsTheDeploymentDoes() throws IOException {
        String dockerfile = Files.readString(Crds.repositoryRoot().resolve("Dockerfile"));
        Deployment deployment = (Deployment) only("Deployment");
        Map<String, String> env = new HashMap<>();
        deployment
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv()
                .forEach(e -> env.put(e.getName(), e.getValue()));
        var options = Pattern.compile("\nENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(dockerfile);
        assertThat(options.find()).isTrue();
        // the Deployment's read-only root filesystem needs a writable temporary directory, the image has /tmp anyway
        assertThat(env.get("JAVA_TOOL_OPTIONS").replace(" -Djava.io.tmpdir=/tmp", ""))
                .isEqualTo(options.group(1));
        assertThat(dockerfile).contains("\nENV MALLOC_ARENA_MAX=" + env.get("MALLOC_ARENA_MAX") + "\n");
    }

    @Test
    void theMemoryRequestCoversThePeakRssOfTheBenchmark() throws IOException {
        // the largest run (make bench-memory) with the Deployment's JVM settings, no collection forced from outside
        String run = "docs/bench/" + SizingRun.N4000;
        for (String manifest : List.of("config/manager/manager.yaml", "config/sharded/statefulset.yaml")) {
            assertThat(Files.readString(Crds.repositoryRoot().resolve(manifest)))
                    .as(manifest + " names the run its memory is sized from")
                    .contains("(" + run + ")");
        }
        String summary = Files.readString(Crds.repositoryRoot().resolve(run + "/summary.txt"));
        assertThat(summary).as(run + " forced no collection").contains(" induced_gcs=0 ");
        String report = Files.readString(Crds.repositoryRoot().resolve(run + "/report.md"));
        var container = ((Deployment) only("Deployment"))
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        var resources = container.getResources();
        String options = container.getEnv().stream()
                .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
                .findFirst()
                .orElseThrow()
                .getValue();
        assertThat(report)
                .as(run + " ran the Deployment's JVM settings")
                .contains("flags -XX:MaxRAM="
                        + resources
                                .getLimits()
                                .get("memory")
                                .getNumericalAmount()
                                .toBigInteger() + " " + options);
        var peak = Pattern.compile("peak_rss_mb=([0-9.]+)").matcher(summary);
        assertThat(peak.find()).as(run + "/summary.txt has peak_rss_mb").isTrue();
        double requestMib =
                resources.getRequests().get("memory").getNumericalAmount().doubleValue() / (1 << 20);
        double limitMib =
                resources.getLimits().get("memory").getNumericalAmount().doubleValue() / (1 << 20);
        assertThat(requestMib)
                .as("memory request (MiB) against the benchmark's peak RSS")
                .isGreaterThanOrEqualTo(Double.parseDouble(peak.group(1)));
        assertThat(limitMib).isGreaterThanOrEqualTo(requestMib);
    }

    @Test
    void theShardedOverlayRunsTheSamePodAsAStatefulSetWhoseOrdinalIsTheShard() throws Exception {
        String sharded = Kubectl.ok(
                "kustomize", Crds.repositoryRoot().resolve("config/sharded").toString());
        List<HasMetadata> shardedObjects;
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            shardedObjects = client.load(new ByteArrayInputStream(sharded.getBytes(StandardCharsets.UTF_8)))
                    .items();
        }
        assertThat(shardedObjects)
                .extracting(HasMetadata::getKind)
                .contains("StatefulSet", "Service", "ClusterRole", "ServiceMonitor", "PrometheusRule")
                .doesNotContain("Deployment", "PodDisruptionBudget");
        var statefulSet = (StatefulSet) shardedObjects.stream()
                .filter(o -> o.getKind().equals("StatefulSet"))
                .findFirst()
                .orElseThrow();
        var pod = statefulSet.getSpec().getTemplate();
        var container = pod.getSpec().getContainers().get(0);
        int shards = container.getArgs().stream()
                .filter(a -> a.startsWith("--shards="))
                .findFirst()
                .map(a -> Integer.parseInt(a.substring("--shards=".length())))
                .orElseThrow();
        assertThat(statefulSet.getSpec().getReplicas()).as("one pod per shard").isEqualTo(shards);
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("KYMA_OPERATOR_SHARD_ID");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        });
        assertThat(statefulSet.getSpec().getServiceName())
                .isEqualTo(only("Service").getMetadata().getName());

        // apart from the shard flags, the pod is the Deployment's
        container.getArgs().removeIf(a -> a.startsWith("--shards="));
        container.getEnv().removeIf(e -> e.getName().equals("KYMA_OPERATOR_SHARD_ID"));
        assertThat(Serialization.asYaml(pod))
                .isEqualTo(Serialization.asYaml(
                        ((Deployment) only("Deployment")).getSpec().getTemplate()));

        String manifest = String.join(
                "\n---\n",
                shardedObjects.stream()
                        .filter(o -> !o.getKind().equals("ServiceMonitor")
                                && !o.getKind().equals("PrometheusRule"))
                        .map(Serialization::asYaml)
                        .toList());
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            Namespaces.apply(client, "kyma-operator-system");
        }
        Path file = Files.createTempFile("sharded", ".yaml");
        Files.writeString(file, manifest);
        assertThat(Kubectl.ok("apply", "--server-side", "--force-conflicts", "--dry-run=server", "-f", file.toString()))
                .contains("statefulset.apps/kyma-operator-controller-manager serverside-applied (server dry run)");
    }

    private static HasMetadata only(String kind) {
        List<HasMetadata> matching =
                objects.stream().filter(o -> o.getKind().equals(kind)).toList();
        assertThat(matching).as(kind).hasSize(1);
        return matching.get(0);
    }
}
