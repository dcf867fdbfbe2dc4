package io.kyma.operator.manager.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.awaitility.core.ConditionTimeoutException;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.KymaOperator;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.RequestRecorder;
import io.kyma.operator.testing.fuzz.Oracle;
import io.kyma.operator.testing.fuzz.ScriptedJobService;
import io.kyma.operator.testing.fuzz.Violation;

/**
 * One run's world: two tenant namespaces ({@code a} and {@code b}), a control namespace no action touches, a job
 * service of scripted answers, and the real operator in this JVM watching every namespace, its requests recorded. What
 * the tenants did that the oracles must know (Runs they made, objects they touched, stray objects they wrote, quotas,
 * deleted namespaces) is kept here. Closing it stops the operator and clears the namespaces.
 */
final class FuzzWorld implements AutoCloseable {
    static final List<String> ROLES = List.of("a", "b");
    static final List<String> MODULES = List.of("istio", "ory", "logging");
    static final String HOLD = "tenant.example.com/hold";
    static final String QUOTA = "fz-quota";
    static final String QUOTA_RESOURCE = "count/helmcomponents." + Kyma.GROUP;
    static final String CONTROL = "ctl";
    private static final AtomicInteger WORLDS = new AtomicInteger();

    final KubernetesClient admin;
    final ScriptedJobService jobs = ScriptedJobService.start(Duration.ofSeconds(3));
    final RequestRecorder requests = new RequestRecorder();
    final KymaOperator operator;
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** The uids of every Run a tenant made. */
    final Set<String> runUids = ConcurrentHashMap.newKeySet();
    /** Tenant actions that named each object ({@code resource/name}) or its whole namespace ({@code ns/role}). */
    private final Map<String, Integer> touches = new HashMap<>();
    /** Stray components as written ({@code role/name}): nothing may change their spec, labels or owners. */
    final Map<String, HelmComponent> strays = new HashMap<>();

    final Set<String> quotas = new java.util.HashSet<>();
    final Set<String> deletedNamespaces = new java.util.HashSet<>();

    FuzzWorld(KubernetesClient admin) {
        this.admin = admin;
        int world = WORLDS.incrementAndGet();
        for (String role : ROLES) {
            namespaces.put(role, Namespaces.apply(admin, "fz" + world + "-" + role));
        }
        namespaces.put(CONTROL, Namespaces.apply(admin, "fz" + world + "-" + CONTROL));
        List<String> args = List.of(
                "--metrics-bind-address", "0",
                "--health-probe-bind-address", "0",
                "--transition-unit", "10ms",
                "--failure-base-delay", "200ms",
                "--remote-server-url", jobs.url());
        operator = new KymaOperator(
                ManagerConfig.parse(args.toArray(String[]::new), Map.of()),
                EmbeddedControlPlane.get().config(),
                Clock.systemUTC(),
                List.of(requests));
        operator.start();
        admin.resource(TenantAction.kyma(ns(CONTROL), CONTROL, List.of("istio", "ory")))
                .create();
    }

    /** The namespace of a role ({@code a}, {@code b} or {@code ctl}). */
    String ns(String role) {
        return namespaces.get(role);
    }

    Map<String, String> namespaces() {
        return namespaces;
    }

    void touch(String key) {
        touches.merge(key, 1, Integer::sum);
    }

    int touches(String resource, String name, String role) {
        return touches.getOrDefault(resource + "/" + name, 0) + touches.getOrDefault("ns/" + role, 0);
    }

    /** Runs {@code write} as a tenant would: a refusal (gone, conflict, invalid, forbidden) is the tenant's problem. */
    static void tolerate(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            if (!Set.of(403, 404, 409, 422).contains(e.getCode())) {
                throw e;
            }
        }
    }

    /** Why the operator cannot create components in a role's namespace, as words its status must then contain. */
    String blocker(String role) {
        if (deletedNamespaces.contains(role)) {
            return "terminat";
        }
        return quotas.contains(role) ? "quota" : null;
    }

    /** Waits until every oracle holds, or a hang catcher's deadline passes; the violations then left. */
    List<Violation> settle(List<Oracle<FuzzWorld>> oracles) {
        List<Violation> last = new ArrayList<>();
        Supplier<List<Violation>> check = () -> {
            List<Violation> found = new ArrayList<>();
            oracles.forEach(o -> found.addAll(o.check(this)));
            return found;
        };
        try {
            await().atMost(HangCatcher.STEP)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> {
                        List<Violation> found = check.get();
                        last.clear();
                        last.addAll(found);
                        return found.isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            // the violations of the last look are the answer
        }
        return List.copyOf(last);
    }

    @Override
    public void close() {
        operator.close();
        jobs.close();
        for (String ns : namespaces.values()) {
            for (Class<? extends HasMetadata> kind : List.of(Kyma.class, HelmComponent.class, Run.class)) {
                for (HasMetadata object :
                        admin.resources(kind).inNamespace(ns).list().getItems()) {
                    tolerate(() -> admin.resources(kind)
                            .inNamespace(ns)
                            .withName(object.getMetadata().getName())
                            .edit(o -> {
                                o.getMetadata().setFinalizers(List.of());
                                return o;
                            }));
                    tolerate(() -> admin.resources(kind)
                            .inNamespace(ns)
                            .withName(object.getMetadata().getName())
                            .delete());
                }
            }
            tolerate(() -> admin.resources(ResourceQuota.class)
                    .inNamespace(ns)
                    .withName(QUOTA)
                    .delete());
        }
    }
}
