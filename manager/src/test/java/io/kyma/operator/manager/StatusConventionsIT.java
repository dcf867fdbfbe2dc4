package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Kubectl;
import io.kyma.operator.testing.Namespaces;

/**
 * What a user of kubectl sees: {@code kubectl wait} returns for every kind on success and on failure, the columns
 * give the reason, one category lists all three kinds, the schema refuses duplicate modules naming the field, and
 * {@code kubectl describe} tells a Kyma's and a Run's story in events.
 */
class StatusConventionsIT {
    private static final String NS = "conventions";
    private static KubernetesClient admin;
    private static JobServer jobs;
    private static KymaOperator manager;

    @BeforeAll
    static void start() throws Exception {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
        jobs = JobServer.start("127.0.0.1", 0);
        ManagerConfig config = ManagerConfig.parse(
                new String[] {
                    "--namespace", NS,
                    "--transition-unit", "10ms",
                    "--remote-server-url", jobs.url(),
                    "--run-poll-interval", "200ms",
                    "--metrics-bind-address", "0",
                    "--health-probe-bind-address", "0"
                },
                Map.of());
        manager = new KymaOperator(config, EmbeddedControlPlane.get().config(), Clock.systemUTC(), List.of());
        manager.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (manager != null) {
            manager.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        admin.close();
    }

    @Test
    void kubectlWaitReturnsForEveryKindOnSuccessAndOnFailure() {
        admin.resource(Samples.kyma(NS, "waits", List.of("istio", "api-gateway")))
                .create();
        wait("condition=Ready", "kyma/waits");
        wait("condition=Ready", "helmcomponent/waits-istio");
        // another Kyma whose component name the first one holds: Error, Ready=False
        admin.resource(Samples.kyma(NS, "waits-api", List.of("gateway"))).create();
        wait("condition=Ready=false", "kyma/waits-api");
        assertThat(Kubectl.ok("get", "kyma", "waits-api", "-n", NS))
                .contains("Error")
                .contains("ComponentNameTaken");

        admin.resource(Samples.run(NS, "succeeds", "build", Map.of("durationSeconds", "1"), null, null))
                .create();
        admin.resource(Samples.run(NS, "fails", "migrate", Map.of("durationSeconds", "1", "fail", "true"), null, null))
                .create();
        wait("condition=Succeeded", "run/succeeds");
        wait("condition=Succeeded=false", "run/fails");
        assertThat(Kubectl.ok("get", "kr", "-n", NS))
                .as("the Run's short name, its phase and the reason columns")
                .containsPattern("succeeds\\s+Succeeded\\s+True\\s+JobSucceeded")
                .containsPattern("fails\\s+Failed\\s+False\\s+JobFailed");
        assertThat(Kubectl.ok("get", "helmcomponents", "-n", NS))
                .containsPattern("waits-istio\\s+waits\\s+istio\\s+success\\s+True\\s+Installed");
    }

    @Test
    void aRunningRunSaysSoInItsPhaseAndItsSucceededCondition() {
        admin.resource(Samples.run(NS, "long", "build", Map.of("durationSeconds", "600"), null, null))
                .create();
        wait("condition=Succeeded=Unknown", "run/long");
        assertThat(Kubectl.ok("get", "run", "long", "-n", NS))
                .containsPattern("long\\s+Running\\s+Unknown\\s+JobRunning");
    }

    @Test
    void oneCategoryListsAllThreeKinds() {
        admin.resource(Samples.kyma(NS, "listed", List.of("istio"))).create();
        admin.resource(Samples.run(NS, "listed", "build", Map.of("durationSeconds", "1"), null, null))
                .create();
        await().atMost(HangCatcher.STEP)
                .untilAsserted(() -> assertThat(Kubectl.ok("get", "kyma-operator", "-n", NS))
                        .contains("kyma.inventory.kyma-project.io/listed")
                        .contains("helmcomponent.inventory.kyma-project.io/listed-istio")
                        .contains("run.inventory.kyma-project.io/listed"));
    }

    @Test
    void duplicateModulesAreRefusedAtAdmissionNamingTheField() {
        Kyma twice = Samples.kyma(NS, "twice", List.of("istio", "istio"));
        Throwable refused = catchThrowable(() -> admin.resource(twice).create());
        assertThat(refused)
                .as("the API server refuses the Kyma")
                .hasMessageContaining("spec.modules[1]")
                .hasMessageContaining("Duplicate value");
    }

    @Test
    void describeTellsAKymasAndARunsStoryInEventsAndARepeatRaisesTheCount() {
        admin.resource(Samples.kyma(NS, "story", List.of("istio", "ory"))).create();
        wait("condition=Ready", "kyma/story");
        admin.resource(Samples.run(NS, "story", "build", Map.of("durationSeconds", "1"), null, null))
                .create();
        wait("condition=Succeeded", "run/story");

        await().atMost(HangCatcher.STEP).untilAsserted(() -> {
            assertThat(Kubectl.ok("describe", "kyma", "story", "-n", NS))
                    .contains("Admitted")
                    .contains("AllComponentsReady");
            assertThat(Kubectl.ok("describe", "run", "story", "-n", NS))
                    .contains("JobStarted")
                    .contains("JobSucceeded");
        });

        // a component deleted by hand: the Kyma installs it again and is Ready again; the second Ready raises the
        // count of the first event instead of adding one
        Kyma kyma =
                admin.resources(Kyma.class).inNamespace(NS).withName("story").get();
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("story-ory")
                .delete();
        await().atMost(HangCatcher.STEP)
                .untilAsserted(() -> assertThat(events(kyma))
                        .filteredOn(e -> e.getReason().equals("AllComponentsReady"))
                        .singleElement()
                        .extracting(Event::getCount)
                        .isEqualTo(2));
    }

    private static List<Event> events(HasMetadata object) {
        return admin.v1()
                .events()
                .inNamespace(NS)
                .withField("involvedObject.uid", object.getMetadata().getUid())
                .list()
                .getItems();
    }

    private static void wait(String condition, String object) {
        Kubectl.Answer answer = Kubectl.run(
                "wait", "--for=" + condition, object, "-n", NS, "--timeout=" + HangCatcher.STEP.toSeconds() + "s");
        assertThat(answer.ok())
                .as("kubectl wait --for=%s %s:%n%s", condition, object, answer.output())
                .isTrue();
    }
}
