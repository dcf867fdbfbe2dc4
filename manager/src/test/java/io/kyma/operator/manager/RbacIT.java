package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Kubectl;
import io.kyma.operator.testing.MetricsScrape;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.RequestRecorder;
import io.kyma.operator.testing.ServiceAccounts;

/**
 * The manager run as the ServiceAccount of config/rbac, with the roles applied from the repository: every flow
 * works, nothing is forbidden, and every rule of the roles is used by at least one recorded request, so none could
 * be removed.
 */
class RbacIT {
    private static final String SYSTEM = "kyma-operator-system";
    private static final String NS = "rbac-flows";
    private static final String ACCOUNT = "kyma-operator-controller-manager";
    private static final String MONITORING = "rbac-monitoring";

    @Test
    void theFlowsPassAsTheServiceAccountAndEveryRuleIsNeeded() throws Exception {
        List<HasMetadata> rbac = applyRbac();
        RequestRecorder requests = new RequestRecorder();
        Config asAccount = EmbeddedControlPlane.get().config();
        asAccount.setImpersonateUsername("system:serviceaccount:" + SYSTEM + ":" + ACCOUNT);
        asAccount.setImpersonateGroups(
                "system:serviceaccounts", "system:serviceaccounts:" + SYSTEM, "system:authenticated");
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient();
                JobServer jobs = JobServer.start("127.0.0.1", 0)) {
            Namespaces.apply(admin, NS);
            ManagerConfig config = ManagerConfig.parse(
                    new String[] {
                        "--namespace",
                        NS,
                        "--transition-unit",
                        "10ms",
                        "--leader-elect",
                        "--leader-election-namespace",
                        SYSTEM,
                        "--remote-server-url",
                        jobs.url(),
                        "--run-poll-interval",
                        "200ms",
                        "--run-cleanup-timeout",
                        "2s",
                        "--metrics-bind-address",
                        "127.0.0.1:0",
                        "--metrics-secure",
                        "--health-probe-bind-address",
                        "0"
                    },
                    Map.of());
            try (KymaOperator manager = new KymaOperator(config, asAccount, Clock.systemUTC(), List.of(requests));
                    ManagerEndpoints endpoints = manager.serveEndpoints()) {
                manager.start();
                assertOnlyAMetricsReaderScrapes(
                        admin, endpoints.metricsAddress().orElseThrow());
                await().atMost(HangCatcher.STEP).until(manager::leading);

                // Kymas: fan out, find a component name taken by another Kyma, drop a module, delete.
                admin.resource(Samples.kyma(NS, "rbac", List.of("istio", "ory", "rafter", "api-gateway")))
                        .create();
                awaitKyma(admin, "rbac", KymaPhase.READY);
                admin.resource(Samples.kyma(NS, "rbac-api", List.of("gateway"))).create();
                awaitKyma(admin, "rbac-api", KymaPhase.ERROR);
                admin.resources(Kyma.class).inNamespace(NS).withName("rbac-api").delete();
                await().atMost(HangCatcher.STEP).until(() -> get(admin, Kyma.class, "rbac-api") == null);
                admin.resources(Kyma.class).inNamespace(NS).withName("rbac").edit(k -> {
                    k.getSpec().setModules(List.of(new Module("istio", null), new Module("ory", "2.0.0")));
                    return k;
                });
                await().atMost(HangCatcher.STEP)
                        .until(() -> admin.resources(HelmComponent.class)
                                        .inNamespace(NS)
                                        .list()
                                        .getItems()
                                        .size()
                                == 2);
                admin.resources(Kyma.class).inNamespace(NS).withName("rbac").delete();
                await().atMost(HangCatcher.STEP).until(() -> get(admin, Kyma.class, "rbac") == null);

                // Runs: one to the end, one cancelled on deletion, one whose server is gone when it is deleted.
                admin.resource(Samples.run(NS, "done", "build", Map.of("durationSeconds", "1"), null, null))
                        .create();
                admin.resource(Samples.run(NS, "cancelled", "build", Map.of("durationSeconds", "600"), null, null))
                        .create();
                admin.resource(Samples.run(NS, "abandoned", "build", Map.of("durationSeconds", "600"), null, null))
                        .create();
                await().atMost(HangCatcher.STEP)
                        .until(() -> phase(admin, "done") == RunPhase.SUCCEEDED
                                && phase(admin, "cancelled") == RunPhase.RUNNING
                                && phase(admin, "abandoned") == RunPhase.RUNNING);
                admin.resources(Run.class).inNamespace(NS).withName("cancelled").delete();
                await().atMost(HangCatcher.STEP).until(() -> get(admin, Run.class, "cancelled") == null);
                jobs.refuseFor(HangCatcher.LOAD); // until the test is done, however long the deletion takes
                admin.resources(Run.class).inNamespace(NS).withName("abandoned").delete();
                await().atMost(HangCatcher.STEP).until(() -> get(admin, Run.class, "abandoned") == null);
            }
        }

        assertThat(requests.requests()).as("requests the roles forbid").noneMatch(r -> r.code() == 403);
        Set<String> used = new TreeSet<>();
        requests.requests().forEach(r -> used.add(r.group() + " " + r.rbacResource() + " " + r.verb()));
        if (used.contains("authorization.k8s.io selfsubjectrulesreviews create")) {
            // JOSDK reviews its own rules before it runs for the lease and refuses to start without these.
            used.addAll(List.of(
                    "coordination.k8s.io leases get",
                    "coordination.k8s.io leases create",
                    "coordination.k8s.io leases update"));
        }
        // Who holds a taken component name is read from the informer's store when it has the holder, as it does
        // here; the read goes to the API server only when it does not (a sharded replica, or a holder created a
        // moment before): KymaReconcilerTest#aNameAnotherKymaHoldsIsAnErrorWithTheHolderAndARecheckNotARetryLoop.
        used.add("inventory.kyma-project.io helmcomponents get");
        // An event is patched only when the same one repeats within ten minutes (its count raised), which these flows
        // do not do: StatusConventionsIT#describeTellsAKymasAndARunsStoryInEventsAndARepeatRaisesTheCount does.
        used.add(" events patch");
        Set<String> granted = new TreeSet<>();
        for (HasMetadata object : rbac) {
            List<PolicyRule> rules = object instanceof ClusterRole role
                    ? role.getRules()
                    : object instanceof Role role ? role.getRules() : List.of();
            for (PolicyRule rule : rules) {
                assertThat(rule.getApiGroups()).doesNotContain("*");
                assertThat(rule.getResources()).doesNotContain("*");
                assertThat(rule.getVerbs()).doesNotContain("*");
                for (String group : rule.getApiGroups()) {
                    for (String resource : rule.getResources()) {
                        for (String verb : rule.getVerbs()) {
                            granted.add(group + " " + resource + " " + verb);
                        }
                    }
                }
            }
        }
        System.out.println("Granted and used: " + granted);
        assertThat(used)
                .as("every granted permission is used by a recorded request")
                .containsAll(granted);
    }

    /**
     * With --metrics-secure, the manager asks the API server (as its ServiceAccount, through metrics-auth-role) who a
     * token is and whether it may get /metrics: a ServiceAccount bound to the shipped metrics-reader ClusterRole may,
     * another may not, a made-up token is nobody.
     */
    private static void assertOnlyAMetricsReaderScrapes(KubernetesClient admin, InetSocketAddress metrics)
            throws Exception {
        ServiceAccounts.bind(admin, MONITORING, "prometheus", "kyma-operator-metrics-reader");
        String reader = ServiceAccounts.token(admin, MONITORING, "prometheus");
        ServiceAccounts.awaitAllowed(admin, MONITORING, "prometheus", "/metrics");
        String other = ServiceAccounts.token(admin, MONITORING, "not-a-reader");
        HttpResponse<String> scrape = MetricsScrape.get(metrics, Optional.of(reader));
        assertThat(scrape.statusCode()).as(scrape.body()).isEqualTo(200);
        assertThat(scrape.body()).contains("kyma_operator_build_info");
        assertThat(MetricsScrape.get(metrics, Optional.of(other)).statusCode()).isEqualTo(403);
        assertThat(MetricsScrape.get(metrics, Optional.of("made-up")).statusCode())
                .isEqualTo(401);
        assertThat(MetricsScrape.get(metrics, Optional.empty()).statusCode()).isEqualTo(401);
    }

    /** Applies the ServiceAccount, roles and bindings exactly as config/default renders them. */
    private static List<HasMetadata> applyRbac() throws Exception {
        String rendered = Kubectl.ok(
                "kustomize", Crds.repositoryRoot().resolve("config/default").toString());
        List<HasMetadata> applied = new ArrayList<>();
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, SYSTEM);
            for (HasMetadata object : admin.load(new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8)))
                    .items()) {
                if (Set.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")
                        .contains(object.getKind())) {
                    applied.add(admin.resource(object).forceConflicts().serverSideApply());
                }
            }
        }
        return applied;
    }

    private static void awaitKyma(KubernetesClient admin, String name, KymaPhase phase) {
        await().atMost(HangCatcher.STEP).until(() -> {
            Kyma kyma = get(admin, Kyma.class, name);
            return kyma != null && kyma.getStatus() != null && kyma.getStatus().getPhase() == phase;
        });
    }

    private static RunPhase phase(KubernetesClient admin, String name) {
        Run run = get(admin, Run.class, name);
        return run == null || run.getStatus() == null ? null : run.getStatus().getPhase();
    }

    private static <T extends HasMetadata> T get(KubernetesClient admin, Class<T> type, String name) {
        return admin.resources(type).inNamespace(NS).withName(name).get();
    }
}
