package io.kyma.operator.manager.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatus;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.fuzz.Action;
import io.kyma.operator.testing.fuzz.ScriptedJobService;

/**
 * What a hostile tenant, the cluster and a job service can do, each as a record that applies itself through the API
 * server and prints itself as a kubectl line ({@code $A} and {@code $B} stand for the tenant namespaces). An action
 * whose target is missing, or that the API server refuses, does nothing.
 */
sealed interface TenantAction extends Action<FuzzWorld> {
    String MERGE = "--type=merge -p";

    record CreateKyma(String role, String name, List<String> modules) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchKyma(w, role, name);
            FuzzWorld.tolerate(
                    () -> w.admin.resource(kyma(w.ns(role), name, modules)).create());
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " create -f - <<<'" + kymaJson(name, modules) + "'";
        }
    }

    record SetModules(String role, String name, List<String> modules) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchKyma(w, role, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(Kyma.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(k -> {
                        k.getSpec().setModules(toModules(modules));
                        return k;
                    }));
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " patch kyma " + name + " " + MERGE + " '{\"spec\":{\"modules\":"
                    + modulesJson(modules) + "}}'";
        }
    }

    record DeleteKyma(String role, String name) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchKyma(w, role, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(Kyma.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .delete());
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " delete kyma " + name + " --wait=false";
        }
    }

    /** Strips the Kyma's finalizers, deletes it and creates it again at once: its components stay, owned by the old uid. */
    record RecreateKyma(String role, String name, List<String> modules) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchKyma(w, role, name);
            stripFinalizers(w, Kyma.class, role, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(Kyma.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .delete());
            FuzzWorld.tolerate(
                    () -> w.admin.resource(kyma(w.ns(role), name, modules)).create());
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " patch kyma " + name + " " + MERGE
                    + " '{\"metadata\":{\"finalizers\":null}}' && kubectl -n $" + up(role) + " delete kyma " + name
                    + " && kubectl -n $" + up(role) + " create -f - <<<'" + kymaJson(name, modules) + "'";
        }
    }

    record DeleteComponent(String role, String name) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .delete());
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " delete helmcomponent " + name + " --wait=false";
        }
    }

    /** Sets a label of a component, or removes it when {@code value} is null. */
    record Relabel(String role, String name, String key, String value) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(c -> {
                        Map<String, String> labels = new HashMap<>(
                                c.getMetadata().getLabels() == null
                                        ? Map.of()
                                        : c.getMetadata().getLabels());
                        if (value == null) {
                            labels.remove(key);
                        } else {
                            labels.put(key, value);
                        }
                        c.getMetadata().setLabels(labels);
                        return c;
                    }));
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " label helmcomponent " + name + " " + key
                    + (value == null ? "-" : "=" + value + " --overwrite");
        }
    }

    /** Sets {@code spec.kyma}, {@code spec.module} or {@code spec.version} of a component. */
    record EditComponentSpec(String role, String name, String field, String value) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(c -> {
                        switch (field) {
                            case "kyma" -> c.getSpec().setKyma(value);
                            case "module" -> c.getSpec().setModule(value);
                            default -> c.getSpec().setVersion(value);
                        }
                        return c;
                    }));
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " patch helmcomponent " + name + " " + MERGE + " '{\"spec\":{\"" + field
                    + "\":\"" + value + "\"}}'";
        }
    }

    record DropOwners(String role, String name) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(c -> {
                        c.getMetadata().setOwnerReferences(new ArrayList<>());
                        return c;
                    }));
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " patch helmcomponent " + name + " --type=json -p "
                    + "'[{\"op\":\"remove\",\"path\":\"/metadata/ownerReferences\"}]'";
        }
    }

    /**
     * Adds an ownerReference to Kyma {@code owner} (or, when it is null, to a uid no object has), listed first or last;
     * as controller it takes the controller flag from the reference that had it.
     */
    record AddOwner(String role, String name, String owner, boolean first, boolean controller) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            if (owner != null) {
                w.touch("kymas/" + owner);
            }
            Kyma target = owner == null
                    ? null
                    : w.admin
                            .resources(Kyma.class)
                            .inNamespace(w.ns(role))
                            .withName(owner)
                            .get();
            if (owner != null && target == null) {
                return;
            }
            String uid = target == null
                    ? UUID.nameUUIDFromBytes(name.getBytes()).toString()
                    : target.getMetadata().getUid();
            OwnerReference reference = new OwnerReferenceBuilder()
                    .withApiVersion(Kyma.GROUP + "/" + Kyma.VERSION)
                    .withKind("Kyma")
                    .withName(owner == null ? "gone" : owner)
                    .withUid(uid)
                    .withController(controller ? true : null)
                    .build();
            FuzzWorld.tolerate(() -> w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(c -> {
                        List<OwnerReference> references = new ArrayList<>();
                        for (OwnerReference r : c.getMetadata().getOwnerReferences()) {
                            if (controller) {
                                r.setController(null);
                            }
                            references.add(r);
                        }
                        references.add(first ? 0 : references.size(), reference);
                        c.getMetadata().setOwnerReferences(references);
                        return c;
                    }));
        }

        @Override
        public String script() {
            String uid = owner == null
                    ? UUID.nameUUIDFromBytes(name.getBytes()).toString()
                    : "'$(kubectl -n $" + up(role) + " get kyma " + owner + " -o jsonpath={.metadata.uid})'";
            return "kubectl -n $" + up(role) + " patch helmcomponent " + name + " --type=json -p '["
                    + (controller ? "{\"op\":\"remove\",\"path\":\"/metadata/ownerReferences/0/controller\"}," : "")
                    + "{\"op\":\"add\",\"path\":\"/metadata/ownerReferences/" + (first ? "0" : "-")
                    + "\",\"value\":{\"apiVersion\":\"" + Kyma.GROUP + "/" + Kyma.VERSION
                    + "\",\"kind\":\"Kyma\",\"name\":\"" + (owner == null ? "gone" : owner) + "\",\"uid\":\"" + uid
                    + "\"" + (controller ? ",\"controller\":true" : "") + "}}]'";
        }
    }

    /** Adds or removes the tenant's finalizer on a Kyma, component or Run ({@code kind} as kubectl names it). */
    record Finalize(String role, String kind, String name, boolean add) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch(resource(kind) + "/" + name);
            Class<? extends HasMetadata> type = type(kind);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(type)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(o -> {
                        List<String> finalizers =
                                new ArrayList<>(o.getMetadata().getFinalizers());
                        finalizers.remove(FuzzWorld.HOLD);
                        if (add) {
                            finalizers.add(FuzzWorld.HOLD);
                        }
                        o.getMetadata().setFinalizers(finalizers);
                        return o;
                    }));
        }

        @Override
        public String script() {
            return add
                    ? "kubectl -n $" + up(role) + " patch " + kind + " " + name + " --type=json -p "
                            + "'[{\"op\":\"add\",\"path\":\"/metadata/finalizers/-\",\"value\":\"" + FuzzWorld.HOLD
                            + "\"}]'"
                    : "# remove finalizer " + FuzzWorld.HOLD + " from " + kind + " " + name + " in $" + up(role)
                            + " (kubectl edit)";
        }
    }

    /** A component written by the tenant, without owners, pointing at Kyma {@code kyma}'s module by labels and spec. */
    record CreateStray(String role, String name, String kyma, String module) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            touchComponent(w, name);
            HelmComponent stray = new HelmComponent();
            stray.setMetadata(new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(w.ns(role))
                    .withLabels(Map.of(Labels.KYMA, kyma, Labels.MODULE, module))
                    .build());
            stray.setSpec(new HelmComponentSpec());
            stray.getSpec().setKyma(kyma);
            stray.getSpec().setModule(module);
            FuzzWorld.tolerate(() -> {
                HelmComponent created = w.admin.resource(stray).create();
                if (!name.startsWith(kyma + "-")) {
                    w.strays.put(role + "/" + name, created);
                }
            });
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " create -f - <<<'{\"apiVersion\":\"" + Kyma.GROUP + "/" + Kyma.VERSION
                    + "\",\"kind\":\"HelmComponent\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\""
                    + Labels.KYMA + "\":\"" + kyma + "\",\"" + Labels.MODULE + "\":\"" + module
                    + "\"}},\"spec\":{\"kyma\":\"" + kyma + "\",\"module\":\"" + module + "\"}}'";
        }
    }

    /** A ResourceQuota of no HelmComponents in the namespace, or its removal. */
    record Quota(String role, boolean deny) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("ns/" + role);
            String ns = w.ns(role);
            if (!deny) {
                w.quotas.remove(role);
                FuzzWorld.tolerate(() -> w.admin
                        .resources(ResourceQuota.class)
                        .inNamespace(ns)
                        .withName(FuzzWorld.QUOTA)
                        .delete());
                return;
            }
            Map<String, Quantity> none = Map.of(FuzzWorld.QUOTA_RESOURCE, new Quantity("0"));
            FuzzWorld.tolerate(() -> {
                w.admin
                        .resource(new ResourceQuotaBuilder()
                                .withNewMetadata()
                                .withName(FuzzWorld.QUOTA)
                                .withNamespace(ns)
                                .endMetadata()
                                .withNewSpec()
                                .withHard(none)
                                .endSpec()
                                .build())
                        .create();
                w.quotas.add(role);
                // what kube-controller-manager's quota controller would write; admission counts from it
                w.admin
                        .resources(ResourceQuota.class)
                        .inNamespace(ns)
                        .withName(FuzzWorld.QUOTA)
                        .editStatus(q -> {
                            q.setStatus(new ResourceQuotaStatus(none, none));
                            return q;
                        });
            });
        }

        @Override
        public String script() {
            return deny
                    ? "kubectl -n $" + up(role) + " create quota " + FuzzWorld.QUOTA + " --hard="
                            + FuzzWorld.QUOTA_RESOURCE + "=0"
                    : "kubectl -n $" + up(role) + " delete quota " + FuzzWorld.QUOTA;
        }
    }

    /** Deletes the namespace; with no namespace controller it stays Terminating and refuses new objects. */
    record DeleteNamespace(String role) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("ns/" + role);
            w.deletedNamespaces.add(role);
            FuzzWorld.tolerate(() ->
                    w.admin.resources(Namespace.class).withName(w.ns(role)).delete());
        }

        @Override
        public String script() {
            return "kubectl delete namespace $" + up(role) + " --wait=false";
        }
    }

    /** A Run of a job lasting {@code durationMs}, failing if asked, with a timeout or none. */
    record CreateRun(String role, String name, int durationMs, boolean fail, String timeout) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("runs/" + name);
            Run run = new Run();
            run.setMetadata(new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(w.ns(role))
                    .build());
            run.setSpec(new RunSpec());
            run.getSpec().setJob(new JobSpec());
            run.getSpec().getJob().setName("build");
            run.getSpec().getJob().setParams(Map.of("durationMs", Integer.toString(durationMs), "fail", "" + fail));
            run.getSpec().setPollInterval("200ms");
            run.getSpec().setTimeout(timeout);
            FuzzWorld.tolerate(() ->
                    w.runUids.add(w.admin.resource(run).create().getMetadata().getUid()));
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " create -f - <<<'{\"apiVersion\":\"" + Kyma.GROUP + "/" + Kyma.VERSION
                    + "\",\"kind\":\"Run\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"job\":{\"name\":"
                    + "\"build\",\"params\":{\"durationMs\":\"" + durationMs + "\",\"fail\":\"" + fail + "\"}},"
                    + "\"pollInterval\":\"200ms\"" + (timeout == null ? "" : ",\"timeout\":\"" + timeout + "\"")
                    + "}}'";
        }
    }

    record DeleteRun(String role, String name) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("runs/" + name);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(Run.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .delete());
        }

        @Override
        public String script() {
            return "kubectl -n $" + up(role) + " delete run " + name + " --wait=false";
        }
    }

    /**
     * Points a Run's {@code spec.server} at the other allowed job service, back at the default one, or at a
     * link-local address no Run may use; the Run still ends as the job it started did.
     */
    record EditRunServer(String role, String name, String target) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("runs/" + name);
            String server = server(w);
            FuzzWorld.tolerate(() -> w.admin
                    .resources(Run.class)
                    .inNamespace(w.ns(role))
                    .withName(name)
                    .edit(r -> {
                        r.getSpec().setServer(server);
                        return r;
                    }));
        }

        private String server(FuzzWorld w) {
            return switch (target) {
                case "other" -> w.otherJobs.url();
                case "default" -> w.jobs.url();
                default -> "http://169.254.169.254";
            };
        }

        @Override
        public String script() {
            String server = switch (target) {
                case "other" -> "$OTHER_JOB_SERVICE";
                case "default" -> "$JOB_SERVICE";
                default -> "http://169.254.169.254";
            };
            return "kubectl -n $" + up(role) + " patch run " + name + " " + MERGE + " '{\"spec\":{\"server\":\""
                    + server + "\"}}'";
        }
    }

    /** The job service's next {@code count} answers, to any call, take {@code shape}. */
    record JobAnswers(ScriptedJobService.Shape shape, int count) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            FuzzWorld.ROLES.forEach(role -> w.touch("ns/" + role));
            w.jobs.answerNext(shape, count);
        }

        @Override
        public String script() {
            return "# job service: the next " + count + " answer(s) are " + shape;
        }
    }

    /**
     * The admission webhook of a role's namespace allows, denies or hangs on creates of HelmComponents and on Events
     * from now on (its configuration and the namespace's label are made the first time).
     */
    record Webhook(String role, FuzzWebhook.Mode mode) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.touch("ns/" + role);
            w.webhook(role, mode);
        }

        @Override
        public String script() {
            return "# admission webhook " + FuzzWebhook.name(role) + " of $" + up(role) + " (timeoutSeconds "
                    + FuzzWebhook.TIMEOUT_SECONDS + ", failurePolicy Fail; HelmComponent CREATE, Event CREATE/UPDATE)"
                    + " now answers: " + mode.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A Kyma in the control namespace, which no tenant touches; made while a webhook hangs, it measures how long
     * another namespace's hanging calls delay the control namespace's work.
     */
    record ControlKyma(String name) implements TenantAction {
        @Override
        public void apply(FuzzWorld w) {
            w.controlKyma(name);
        }

        @Override
        public String script() {
            return "kubectl -n $CTL create -f - <<<'" + kymaJson(name, FuzzWorld.CONTROL_MODULES) + "'";
        }
    }

    /**
     * The API server misbehaves towards the operator for the next {@code steps} actions and then recovers by itself
     * (the world's tick ends it, and before the final judgement at the latest): the fault proxy in front of it, which
     * only the operator's requests pass (the tenants' do not), injects {@code kind}; {@code percent} is the share of
     * requests an error or a reset meets.
     */
    record ApiFault(Kind kind, int percent, int steps) implements TenantAction {
        /** What the proxy does while the window is open. */
        enum Kind {
            ERROR_500,
            UNAVAILABLE_503,
            TIMEOUT_504,
            THROTTLED_429,
            RESET,
            SLOW_ANSWERS,
            SLOW_EVENTS,
            WATCHES_END,
            EVENTS_LOST;

            static final Duration DELAY = Duration.ofMillis(300);
            static final Duration RETRY_AFTER = Duration.ofSeconds(1);

            /** Whether {@code percent} means something: the kinds that meet a share of the requests. */
            boolean shared() {
                return ordinal() <= RESET.ordinal();
            }

            void begin(ApiFaultProxy proxy, int percent) {
                double share = percent / 100.0;
                switch (this) {
                    case ERROR_500 -> proxy.inject(new ApiFaultProxy.Fault(500, share, null));
                    case UNAVAILABLE_503 -> proxy.inject(new ApiFaultProxy.Fault(503, share, null));
                    case TIMEOUT_504 -> proxy.inject(new ApiFaultProxy.Fault(504, share, null));
                    case THROTTLED_429 -> proxy.inject(new ApiFaultProxy.Fault(429, share, RETRY_AFTER));
                    case RESET -> proxy.inject(ApiFaultProxy.Fault.reset(share));
                    case SLOW_ANSWERS -> proxy.delayAnswers(DELAY);
                    case SLOW_EVENTS -> proxy.delayWatchEvents(DELAY);
                    default -> tick(proxy);
                }
            }

            /** Before each action of the window: watches end, or lose their next event, again. */
            void tick(ApiFaultProxy proxy) {
                if (this == WATCHES_END) {
                    proxy.endWatches();
                } else if (this == EVENTS_LOST) {
                    proxy.loseNextWatchEvents();
                }
            }

            static void end(ApiFaultProxy proxy) {
                proxy.inject(null);
                proxy.delayAnswers(Duration.ZERO);
                proxy.delayWatchEvents(Duration.ZERO);
                proxy.keepWatchEvents();
            }

            String describe(int percent) {
                return switch (this) {
                    case ERROR_500, UNAVAILABLE_503, TIMEOUT_504 ->
                        percent + " % of requests answered " + name().substring(name().lastIndexOf('_') + 1);
                    case THROTTLED_429 ->
                        percent + " % of requests answered 429 with Retry-After: " + RETRY_AFTER.toSeconds();
                    case RESET -> percent + " % of connections closed with no answer";
                    case SLOW_ANSWERS -> "every answer " + DELAY.toMillis() + " ms late";
                    case SLOW_EVENTS -> "every watch event " + DELAY.toMillis() + " ms late";
                    case WATCHES_END -> "every watch ended, before each action";
                    case EVENTS_LOST -> "every watch loses its next event (410 Gone), before each action";
                };
            }
        }

        @Override
        public void apply(FuzzWorld w) {
            w.apiFault(this);
        }

        @Override
        public String script() {
            return "# API server, to the operator's requests only, for the next " + steps + " action(s): "
                    + kind.describe(percent);
        }
    }

    static Kyma kyma(String ns, String name, List<String> modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(toModules(modules));
        return kyma;
    }

    /** {@code istio} or {@code istio@1.2.0}. */
    private static List<Module> toModules(List<String> modules) {
        return modules.stream()
                .map(m -> m.contains("@") ? new Module(m.split("@")[0], m.split("@")[1]) : new Module(m, null))
                .toList();
    }

    private static String kymaJson(String name, List<String> modules) {
        return "{\"apiVersion\":\"" + Kyma.GROUP + "/" + Kyma.VERSION + "\",\"kind\":\"Kyma\",\"metadata\":{\"name\":\""
                + name + "\"},\"spec\":{\"modules\":" + modulesJson(modules) + "}}";
    }

    private static String modulesJson(List<String> modules) {
        return "["
                + String.join(
                        ",",
                        modules.stream()
                                .map(m -> m.contains("@")
                                        ? "{\"name\":\"" + m.split("@")[0] + "\",\"version\":\"" + m.split("@")[1]
                                                + "\"}"
                                        : "{\"name\":\"" + m + "\"}")
                                .toList())
                + "]";
    }

    private static void touchKyma(FuzzWorld w, String role, String name) {
        w.touch("kymas/" + name);
        FuzzWorld.MODULES.forEach(m -> w.touch("helmcomponents/" + name + "-" + m));
    }

    /** A component and the Kyma its name says it belongs to. */
    private static void touchComponent(FuzzWorld w, String name) {
        w.touch("helmcomponents/" + name);
        w.touch("kymas/" + name.split("-")[0]);
    }

    private static void stripFinalizers(FuzzWorld w, Class<? extends HasMetadata> type, String role, String name) {
        FuzzWorld.tolerate(() -> w.admin
                .resources(type)
                .inNamespace(w.ns(role))
                .withName(name)
                .edit(o -> {
                    o.getMetadata().setFinalizers(List.of());
                    return o;
                }));
    }

    private static Class<? extends HasMetadata> type(String kind) {
        return switch (kind) {
            case "kyma" -> Kyma.class;
            case "run" -> Run.class;
            default -> HelmComponent.class;
        };
    }

    private static String resource(String kind) {
        return kind.equals("kyma") ? "kymas" : kind.equals("run") ? "runs" : "helmcomponents";
    }

    private static String up(String role) {
        return role.toUpperCase(java.util.Locale.ROOT);
    }
}
