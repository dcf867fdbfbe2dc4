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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.awaitility.core.ConditionTimeoutException;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.KymaOperator;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.RequestRecorder;
import io.kyma.operator.testing.fuzz.Oracle;
import io.kyma.operator.testing.fuzz.ScriptedJobService;
import io.kyma.operator.testing.fuzz.Violation;

/**
 * One run's world: two tenant namespaces ({@code a} and {@code b}), a control namespace no action touches, a job
 * service of scripted answers, and the real operator in this JVM watching every namespace, its requests recorded and
 * passing a fault proxy in front of the API server (the tenants' client does not). What
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
    static final List<String> CONTROL_MODULES = List.of("istio", "ory");
    /** Per control Kyma made while a webhook hung: how long it took to be Ready, by the operator's own timestamps. */
    static final java.util.Queue<String> ISOLATION_DELAYS = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Per world with API faults: how many windows, and how many of the operator's requests met a fault. */
    static final java.util.Queue<String> API_FAULTS = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** How many of the operator's requests a window of errors or resets meets, unless the world settles first. */
    static final int FAULTS_MET = 3;
    /** The operator's longest retry delay: a blocker gone is noticed this soon, so a world settles quickly. */
    static final String FAILURE_MAX_DELAY = "2s";

    private static final AtomicInteger WORLDS = new AtomicInteger();

    final KubernetesClient admin;
    final ScriptedJobService jobs = ScriptedJobService.start(Duration.ofSeconds(3));
    /** A second allowed job service, where a tenant may point a Run's {@code spec.server}. */
    final ScriptedJobService otherJobs = ScriptedJobService.start(Duration.ofSeconds(3));

    final RequestRecorder requests = new RequestRecorder();
    /** The API server as the operator reaches it; the tenants' client reaches it directly. */
    final ApiFaultProxy proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), "operator");

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
    /** The admission webhook of each role's namespace, once an action set one up. */
    final FuzzWebhook webhook = new FuzzWebhook(UUID.randomUUID().toString().substring(0, 8));

    private final Set<String> webhookRoles = new java.util.HashSet<>();
    /** The API fault of the open window, if any, and how many actions it still lasts after the next one begins. */
    private TenantAction.ApiFault fault;

    private int faultLeft;
    private int faultWindows;
    private long injectedAtOpen;
    /** Control Kymas made by an action, with the roles whose webhook hung at that moment (maybe none). */
    private final Map<String, List<String>> controlMade = new LinkedHashMap<>();
    /** The operator's configuration, whose timeouts state the isolation bound. */
    private final ManagerConfig config;

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
                "--failure-max-delay", FAILURE_MAX_DELAY,
                "--remote-server-url", jobs.url(),
                "--remote-server-allow", "127.0.0.1");
        config = ManagerConfig.parse(args.toArray(String[]::new), Map.of());
        operator = new KymaOperator(config, proxy.clientConfig(), Clock.systemUTC(), List.of(requests));
        operator.start();
        admin.resource(TenantAction.kyma(ns(CONTROL), CONTROL, CONTROL_MODULES)).create();
    }

    /** Every job either job service started, with its state now. */
    List<ScriptedJobService.Job> allJobs() {
        List<ScriptedJobService.Job> all = new ArrayList<>(jobs.jobs());
        all.addAll(otherJobs.jobs());
        return all;
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

    /**
     * Runs {@code write} as a tenant would: a refusal (gone, conflict, invalid, forbidden, a webhook that did not
     * answer) is the tenant's problem.
     */
    static void tolerate(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            boolean webhookGaveNoAnswer =
                    e.getCode() >= 500 && String.valueOf(e.getMessage()).contains("webhook");
            if (!Set.of(403, 404, 409, 422).contains(e.getCode()) && !webhookGaveNoAnswer) {
                throw e;
            }
        }
    }

    /**
     * Why the operator cannot create components in a role's namespace, as words its status must then contain; in the
     * API server's order of admission: a terminating namespace, then a webhook, then the quota.
     */
    String blocker(String role) {
        if (deletedNamespaces.contains(role)) {
            return "terminat";
        }
        if (webhook.mode(role) != FuzzWebhook.Mode.ALLOW) {
            return FuzzWebhook.name(role);
        }
        return quotas.contains(role) ? "quota" : null;
    }

    /** Creates a Kyma in the control namespace, noting which webhooks hang meanwhile. */
    void controlKyma(String name) {
        List<String> hanging = ROLES.stream()
                .filter(r -> webhook.mode(r) == FuzzWebhook.Mode.HANG)
                .toList();
        tolerate(() -> {
            admin.resource(TenantAction.kyma(ns(CONTROL), name, CONTROL_MODULES))
                    .create();
            controlMade.put(name, hanging);
        });
    }

    /**
     * How long each control Kyma made by an action took to be Ready: its Ready condition's lastTransitionTime less its
     * creationTimestamp (the operator's and the API server's clocks, to the second), beside the stated bound on how
     * long a namespace whose calls hang may delay another's work: one {@code --reconcile-timeout} (a hanging
     * reconcile holds its worker at most that long; Events have senders of their own, one per namespace at a time).
     * Recorded, not asserted: a busy machine adds to every such time.
     */
    private void recordIsolationDelays() {
        Duration bound = config.reconcile().reconcileTimeout();
        controlMade.forEach((name, hanging) -> {
            Kyma kyma = admin.resources(Kyma.class)
                    .inNamespace(ns(CONTROL))
                    .withName(name)
                    .get();
            String ready = kyma == null || kyma.getStatus() == null
                    ? null
                    : kyma.getStatus().getConditions().stream()
                            .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                            .map(c -> c.getLastTransitionTime())
                            .findFirst()
                            .orElse(null);
            ISOLATION_DELAYS.add(ns(CONTROL) + "/" + name + " made while "
                    + (hanging.isEmpty() ? "no webhook hung" : "the webhook of " + hanging + " hung") + ": "
                    + (ready == null
                            ? "not Ready"
                            : "Ready after "
                                    + Duration.between(
                                                    java.time.Instant.parse(
                                                            kyma.getMetadata().getCreationTimestamp()),
                                                    java.time.Instant.parse(ready))
                                            .toSeconds()
                                    + " s")
                    + " (stated bound on another namespace's delay: " + bound.toSeconds() + " s)");
        });
    }

    /** Puts a role's namespace under its webhook (once) and sets what the webhook answers. */
    void webhook(String role, FuzzWebhook.Mode mode) {
        webhook.set(role, mode);
        if (webhookRoles.add(role)) {
            admin.resource(webhook.configuration(role)).createOrReplace();
            tolerate(() -> admin.namespaces().withName(ns(role)).edit(n -> {
                Map<String, String> labels = new HashMap<>(
                        n.getMetadata().getLabels() == null
                                ? Map.of()
                                : n.getMetadata().getLabels());
                labels.put(FuzzWebhook.LABEL, webhook.labelValue(role));
                n.getMetadata().setLabels(labels);
                return n;
            }));
        }
    }

    /** Opens a window of API faults (ending the one open, if any): every object may see more writes meanwhile. */
    void apiFault(TenantAction.ApiFault next) {
        ROLES.forEach(role -> touch("ns/" + role));
        touch("ns/" + CONTROL.charAt(0));
        TenantAction.ApiFault.Kind.end(proxy);
        fault = next;
        faultLeft = next.steps();
        faultWindows++;
        injectedAtOpen = injected();
        next.kind().begin(proxy, next.percent());
    }

    /**
     * The world's tick before each action ({@code left} actions to come, that one included) and before the final
     * judgement ({@code left} 0): an open fault window goes on for its actions, then ends; none is open at the end.
     * It ends once it has met {@link #FAULTS_MET} of the operator's requests, or the world has settled with it on (the
     * operator had no more to do): actions sent in a burst take less time than the operator's answer to them.
     */
    void beforeStep(int left) {
        if (fault == null) {
            return;
        }
        if (left == 0 || faultLeft == 0) {
            try {
                await().atMost(HangCatcher.STEP)
                        .pollInterval(Duration.ofMillis(250))
                        .ignoreExceptions()
                        .until(() -> injected() - injectedAtOpen >= FAULTS_MET
                                || FuzzOracles.atQuiescence().stream()
                                        .allMatch(o -> o.check(this).isEmpty()));
            } catch (ConditionTimeoutException e) {
                // neither: the final judgement will say what does not hold
            }
            TenantAction.ApiFault.Kind.end(proxy);
            fault = null;
        } else {
            faultLeft--;
            fault.kind().tick(proxy);
        }
    }

    /** The operator's requests the proxy answered with an injected error or reset so far. */
    private long injected() {
        return proxy.exchanges().stream()
                .filter(ApiFaultProxy.Exchange::injected)
                .count();
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
        recordIsolationDelays();
        for (String role : webhookRoles) {
            tolerate(() -> admin.resources(ValidatingWebhookConfiguration.class)
                    .withName(webhook.configName(role))
                    .delete());
        }
        webhook.close();
        operator.close();
        if (faultWindows > 0) {
            long met = proxy.exchanges().stream()
                    .filter(ApiFaultProxy.Exchange::injected)
                    .count();
            API_FAULTS.add(faultWindows + " window(s) of API faults; " + met + " of the operator's "
                    + proxy.exchanges().size() + " requests met an injected error or reset");
        }
        proxy.close();
        jobs.close();
        otherJobs.close();
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
