package io.kyma.operator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.Namespaces;

/** The committed CRDs on a real API server: they install, valid objects round-trip, invalid ones are refused. */
class CustomResourceSchemaIT {
    private static final String NAMESPACE = "schema-it";
    private static KubernetesClient client;
    private static List<CustomResourceDefinition> crds;

    @BeforeAll
    static void installCrds() {
        client = EmbeddedControlPlane.get().newClient();
        crds = Crds.install(client);
        Namespaces.apply(client, NAMESPACE);
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @Test
    void everyCrdIsEstablishedWithStatusSubresourceAndPrinterColumns() {
        assertThat(crds)
                .extracting(c -> c.getMetadata().getName())
                .containsExactly(
                        "helmcomponents.inventory.kyma-project.io",
                        "kymas.inventory.kyma-project.io",
                        "runs.inventory.kyma-project.io");
        for (CustomResourceDefinition crd : crds) {
            var version = crd.getSpec().getVersions().get(0);
            assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
            assertThat(version.getSubresources().getStatus()).isNotNull();
            assertThat(version.getAdditionalPrinterColumns())
                    .last()
                    .satisfies(c -> assertThat(c.getName()).isEqualTo("AGE"));
        }
        assertThat(crds.get(1).getSpec().getVersions().get(0).getAdditionalPrinterColumns())
                .extracting(c -> c.getName())
                .containsExactly("PHASE", "READY", "REASON", "AGE");
    }

    @Test
    void kymaRoundTripsWithStatus() {
        Kyma kyma = kyma("round-trip", List.of(new Module("istio", "1.2.3"), new Module("serverless", null)));
        Kyma created = client.resource(kyma).create();
        assertThat(created.getSpec().getModules())
                .containsExactly(new Module("istio", "1.2.3"), new Module("serverless", null));

        KymaStatus status = new KymaStatus();
        status.setPhase(KymaPhase.PROCESSING);
        status.setObservedGeneration(created.getMetadata().getGeneration());
        ComponentCounts counts = new ComponentCounts();
        counts.setTotal(2);
        counts.setPending(1);
        counts.setSuccess(1);
        counts.setReady(1);
        status.setComponents(counts);
        status.setReadyComponents("1/2");
        created.setStatus(status);
        client.resource(created).updateStatus();

        Kyma read = client.resources(Kyma.class)
                .inNamespace(NAMESPACE)
                .withName("round-trip")
                .get();
        assertThat(read.getStatus().getPhase()).isEqualTo(KymaPhase.PROCESSING);
        assertThat(read.getStatus().getComponents()).isEqualTo(counts);
        assertThat(read.getStatus().getReadyComponents()).isEqualTo("1/2");
    }

    @Test
    void helmComponentRoundTripsWithStatus() {
        HelmComponent component = helmComponent("round-trip-istio", "istio");
        component.getSpec().setKyma("round-trip");
        component.getSpec().setVersion("1.0.0");
        HelmComponent created = client.resource(component).create();

        HelmComponentStatus status = new HelmComponentStatus();
        status.setState(ComponentState.FAILING);
        status.setLastTransitionTime("2026-01-01T00:00:00Z");
        status.setObservedGeneration(1L);
        status.setMessage("waiting");
        created.setStatus(status);
        client.resource(created).updateStatus();

        HelmComponent read = client.resources(HelmComponent.class)
                .inNamespace(NAMESPACE)
                .withName("round-trip-istio")
                .get();
        assertThat(read.getSpec().getModule()).isEqualTo("istio");
        assertThat(read.getStatus().getState()).isEqualTo(ComponentState.FAILING);
        assertThat(read.getStatus().getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void runRoundTripsWithStatus() {
        Run run = run("round-trip", "http://127.0.0.1:9090", "build", "5s", "1h30m");
        run.getSpec().getJob().setParams(Map.of("durationSeconds", "30"));
        Run created = client.resource(run).create();

        RunStatus status = new RunStatus();
        status.setPhase(RunPhase.UNKNOWN);
        status.setRemoteId("job-1");
        status.setStartTime("2026-01-01T00:00:00Z");
        status.setLogs("line 1\nline 2\n");
        status.setLogsTruncated(false);
        created.setStatus(status);
        client.resource(created).updateStatus();

        Run read = client.resources(Run.class)
                .inNamespace(NAMESPACE)
                .withName("round-trip")
                .get();
        assertThat(read.getSpec().getJob().getParams()).containsEntry("durationSeconds", "30");
        assertThat(read.getSpec().getTimeout()).isEqualTo("1h30m");
        assertThat(read.getStatus().getPhase()).isEqualTo(RunPhase.UNKNOWN);
        assertThat(read.getStatus().getRemoteId()).isEqualTo("job-1");
    }

    static Stream<Arguments> invalidObjects() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(invalid("kyma without modules", "spec.modules", () -> kyma("k1", List.of())));
        cases.add(invalid(
                "kyma with 101 modules",
                "spec.modules",
                () -> kyma(
                        "k2",
                        IntStream.range(0, 101)
                                .mapToObj(i -> new Module("m" + i, null))
                                .toList())));
        cases.add(invalid("kyma without spec", "spec", () -> {
            Kyma kyma = kyma("k3", List.of());
            kyma.setSpec(null);
            return kyma;
        }));
        cases.add(invalid(
                "module name with upper case",
                "spec.modules.name",
                () -> kyma("k4", List.of(new Module("Istio", null)))));
        cases.add(invalid(
                "module name of 41 characters",
                "spec.modules.name",
                () -> kyma("k5", List.of(new Module("a".repeat(41), null)))));
        cases.add(invalid(
                "module without name", "spec.modules.name", () -> kyma("k6", List.of(new Module(null, "1.0")))));
        cases.add(invalid(
                "module name ending in a dash",
                "spec.modules.name",
                () -> kyma("k7", List.of(new Module("ok", null), new Module("bad-", null)))));
        cases.add(invalid(
                "module version with a space",
                "spec.modules.version",
                () -> kyma("k8", List.of(new Module("istio", "1 0")))));
        cases.add(invalid("helm component without module", "spec.module", () -> helmComponent("h1", null)));
        cases.add(invalid(
                "helm component module with underscore", "spec.module", () -> helmComponent("h2", "api_gateway")));
        cases.add(invalid("run without job", "spec.job", () -> {
            Run run = run("r1", null, "x", null, null);
            run.getSpec().setJob(null);
            return run;
        }));
        cases.add(invalid("run without job name", "spec.job.name", () -> run("r2", null, null, null, null)));
        cases.add(
                invalid("run with an ftp server", "spec.server", () -> run("r3", "ftp://host/jobs", "x", null, null)));
        cases.add(invalid(
                "run with a server that is no URL", "spec.server", () -> run("r4", "localhost:8080", "x", null, null)));
        cases.add(invalid(
                "run with malformed poll interval",
                "spec.pollInterval",
                () -> run("r5", null, "x", "5 seconds", null)));
        cases.add(invalid("run with negative timeout", "spec.timeout", () -> run("r6", null, "x", null, "-1s")));
        cases.add(invalid("run with 65 job parameters", "spec.job.params", () -> {
            Run run = run("r7", null, "x", null, null);
            IntStream.range(0, 65)
                    .forEach(i -> run.getSpec().getJob().getParams().put("p" + i, "v"));
            return run;
        }));
        cases.add(invalid("run with a job parameter of 4097 characters", "spec.job.params.big", () -> {
            Run run = run("r8", null, "x", null, null);
            run.getSpec().getJob().getParams().put("big", "v".repeat(4097));
            return run;
        }));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidObjects")
    void invalidObjectIsRejectedNamingTheField(String description, String field, Supplier<HasMetadata> object) {
        assertThatThrownBy(() -> client.resource(object.get()).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).as(description).isEqualTo(422);
                    assertThat(e.getMessage()).as(description).contains(field);
                });
    }

    @Test
    void invalidStateIsRejectedInTheStatusSubresource() {
        HelmComponent created =
                client.resource(helmComponent("bad-state", "istio")).create();
        var raw = client.genericKubernetesResources("inventory.kyma-project.io/v1alpha1", "HelmComponent")
                .inNamespace(NAMESPACE)
                .withName("bad-state")
                .get();
        raw.setAdditionalProperty("status", Map.of("state", "installing"));
        assertThat(created).isNotNull();
        assertThatThrownBy(
                        () -> client.genericKubernetesResources("inventory.kyma-project.io/v1alpha1", "HelmComponent")
                                .resource(raw)
                                .updateStatus())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("status.state");
                });
    }

    private static Arguments invalid(String description, String field, Supplier<HasMetadata> object) {
        return Arguments.of(description, field, object);
    }

    private static ObjectMeta meta(String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build();
    }

    static Kyma kyma(String name, List<Module> modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(meta(name));
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(modules);
        return kyma;
    }

    static HelmComponent helmComponent(String name, String module) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(meta(name));
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        return component;
    }

    static Run run(String name, String server, String jobName, String pollInterval, String timeout) {
        Run run = new Run();
        run.setMetadata(meta(name));
        run.setSpec(new RunSpec());
        run.getSpec().setServer(server);
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName(jobName);
        run.getSpec().setPollInterval(pollInterval);
        run.getSpec().setTimeout(timeout);
        return run;
    }
}
