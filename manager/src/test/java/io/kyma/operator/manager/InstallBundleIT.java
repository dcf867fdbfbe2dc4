package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Kubectl;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.ServiceAccounts;

/**
 * {@code make build-installer}'s {@code dist/install.yaml} applied to the API server as a user would, then the
 * operator run as its Deployment says (its arguments, its JVM options, its ServiceAccount's rights): a Kyma becomes
 * Ready. No kubelet runs here, so the container is this machine's java on the jar the image holds.
 */
class InstallBundleIT {
    private static final String NS = "install-bundle";
    private static final String SYSTEM = "kyma-operator-system";
    private static final String ACCOUNT = "kyma-operator-controller-manager";

    @Test
    void theInstallBundleAppliesAndItsDeploymentRunsTheOperator() throws Exception {
        Path dist = Files.createTempDirectory("dist");
        ProcessBuilder build = new ProcessBuilder(
                        Crds.repositoryRoot().resolve("hack/installer.sh").toString(), "registry.example/kyma:0.1.0")
                .redirectErrorStream(true);
        build.environment().put("DIST", dist.toString());
        Process installer = build.start();
        String built = new String(installer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(installer.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        assertThat(installer.exitValue()).as(built).isZero();

        Path install = dist.resolve("install.yaml");
        Kubectl.Answer applied = Kubectl.run("apply", "--server-side", "--force-conflicts", "-f", install.toString());
        assertThat(applied.ok()).as(applied.output()).isTrue();
        assertThat(applied.output())
                .contains(
                        "customresourcedefinition.apiextensions.k8s.io/kymas.inventory.kyma-project.io serverside-applied")
                .contains("deployment.apps/kyma-operator-controller-manager serverside-applied");

        Deployment deployment;
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            List<HasMetadata> objects = admin.load(new ByteArrayInputStream(Files.readAllBytes(install)))
                    .items();
            deployment = objects.stream()
                    .filter(Deployment.class::isInstance)
                    .map(Deployment.class::cast)
                    .findFirst()
                    .orElseThrow();
            assertThat(deployment
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getImage())
                    .isEqualTo("registry.example/kyma:0.1.0");
            assertThat(objects)
                    .extracting(HasMetadata::getKind)
                    .doesNotContain("ServiceMonitor", "PrometheusRule", "PodDisruptionBudget");
            Namespaces.apply(admin, NS);

            var container =
                    deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            Path kubeconfig = Files.createTempFile("as-account", ".kubeconfig");
            // the Deployment's ServiceAccount's own token: its Role's rights and no more
            String token = ServiceAccounts.token(admin, SYSTEM, ACCOUNT);
            Files.writeString(kubeconfig, withToken(EmbeddedControlPlane.get().kubeconfigYaml(), token));
            List<String> command = new ArrayList<>(List.of(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-jar",
                    Path.of("target", "kyma-operator.jar").toAbsolutePath().toString()));
            for (String arg : container.getArgs()) {
                // the container's own ports, and every namespace: here a free port each, and this test's namespace
                if (!arg.startsWith("--metrics-bind-address") && !arg.startsWith("--health-probe-bind-address")) {
                    command.add(arg);
                }
            }
            command.addAll(List.of(
                    "--metrics-bind-address",
                    "0",
                    "--health-probe-bind-address",
                    "0",
                    "--namespace",
                    NS,
                    // in a pod, the namespace of its ServiceAccount
                    "--leader-election-namespace",
                    SYSTEM,
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--transition-unit",
                    "10ms",
                    "--log-format",
                    "json"));
            ProcessBuilder operator = new ProcessBuilder(command).redirectErrorStream(true);
            Path log = Files.createTempFile("install-bundle-operator", ".log");
            operator.redirectOutput(log.toFile());
            for (EnvVar env : container.getEnv()) {
                if (env.getName().equals("JAVA_TOOL_OPTIONS")
                        && Runtime.version().feature() < 24) {
                    operator.environment()
                            .put(env.getName(), env.getValue().replace("-XX:+UseCompactObjectHeaders", ""));
                } else {
                    operator.environment().put(env.getName(), env.getValue());
                }
            }
            Process running = operator.start();
            try {
                admin.resource(Samples.kyma(NS, "installed", List.of("istio", "ory")))
                        .create();
                await().atMost(HangCatcher.LOAD).until(() -> {
                    Kyma kyma = admin.resources(Kyma.class)
                            .inNamespace(NS)
                            .withName("installed")
                            .get();
                    return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
                });
                assertThat(running.isAlive()).isTrue();
                // JSON lines; those logged inside a reconcile name the object and the reconcile
                List<JsonNode> lines = new ArrayList<>();
                for (String line : Files.readAllLines(log)) {
                    if (line.startsWith("{")) {
                        lines.add(new ObjectMapper().readTree(line));
                    }
                }
                assertThat(lines)
                        .filteredOn(l ->
                                l.path("formattedMessage").asText().startsWith("Kyma install-bundle/installed: phase"))
                        .isNotEmpty()
                        .allSatisfy(l -> {
                            assertThat(l.path("mdc").path("resource.kind").asText())
                                    .isEqualTo("Kyma");
                            assertThat(l.path("mdc").path("resource.namespace").asText())
                                    .isEqualTo(NS);
                            assertThat(l.path("mdc").path("resource.name").asText())
                                    .isEqualTo("installed");
                            assertThat(l.path("mdc").path("reconcileID").asText())
                                    .isNotEmpty();
                        });
            } finally {
                running.destroy();
                running.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** The kubeconfig with its user's credentials replaced by {@code token}. */
    @SuppressWarnings("unchecked")
    private static String withToken(String kubeconfig, String token) {
        Map<String, Object> config = Serialization.unmarshal(kubeconfig, Map.class);
        for (Map<String, Object> user : (List<Map<String, Object>>) config.get("users")) {
            user.put("user", Map.of("token", token));
        }
        return Serialization.asYaml(config);
    }
}
