package io.kyma.operator.manager.fuzz;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.testing.RequestRecorder;
import io.kyma.operator.testing.fuzz.Oracle;
import io.kyma.operator.testing.fuzz.ScriptedJobService;

/** The principles of reliability as oracles over a {@link FuzzWorld}. */
final class FuzzOracles {
    /** The operator's writes to one object, per tenant action that named it or its namespace, plus one. */
    static final int WRITES_PER_ACTION = 15;

    private FuzzOracles() {}

    /** Checked after every action: what must hold at every moment. */
    static List<Oracle<FuzzWorld>> afterEachStep() {
        return List.of(
                new Oracle<>("operator-alive", FuzzOracles::operatorStarted),
                new Oracle<>("jobs-asked-for", FuzzOracles::jobsAskedFor),
                new Oracle<>("bounded-writes", FuzzOracles::boundedWrites));
    }

    /** Checked once the world has settled: what the operator must have reached. */
    static List<Oracle<FuzzWorld>> atQuiescence() {
        return List.of(
                new Oracle<>("operator-alive", w -> w.operator.ready() ? List.of() : List.of("not ready")),
                new Oracle<>("jobs-asked-for", FuzzOracles::jobsAskedFor),
                new Oracle<>("bounded-writes", FuzzOracles::boundedWrites),
                new Oracle<>("isolation", FuzzOracles::controlReady),
                new Oracle<>("desired-state", FuzzOracles::desiredState),
                new Oracle<>("foreign-untouched", FuzzOracles::foreignUntouched),
                new Oracle<>("deletion-completes", FuzzOracles::deletionCompletes),
                new Oracle<>("status-names-blocker", FuzzOracles::statusNamesBlocker),
                new Oracle<>("runs-true-to-jobs", FuzzOracles::runsTrueToJobs),
                new Oracle<>("no-job-left-running", FuzzOracles::noJobLeftRunning));
    }

    private static List<String> operatorStarted(FuzzWorld w) {
        return w.operator.operator().getRuntimeInfo().isStarted() ? List.of() : List.of("the operator stopped");
    }

    /** Every job the service started was asked for by a Run a tenant made: its idempotency key is that Run's uid. */
    private static List<String> jobsAskedFor(FuzzWorld w) {
        List<String> found = new ArrayList<>(w.allJobs().stream()
                .filter(job -> !w.runUids.contains(job.key()))
                .map(job -> "job " + job.id() + " started with key " + job.key() + ", the uid of no Run")
                .toList());
        Set<String> onDefault =
                w.jobs.jobs().stream().map(ScriptedJobService.Job::key).collect(Collectors.toSet());
        w.otherJobs.jobs().stream()
                .filter(job -> onDefault.contains(job.key()))
                .forEach(job -> found.add("the Run of uid " + job.key() + " started a job on each job service"));
        return found;
    }

    private static List<String> boundedWrites(FuzzWorld w) {
        Map<String, Long> writes = w.requests.requests().stream()
                .filter(RequestRecorder.Request::isWrite)
                .filter(r -> Set.of("kymas", "helmcomponents", "runs").contains(r.resource()))
                .filter(r -> !r.name().isEmpty())
                .collect(Collectors.groupingBy(r -> r.resource() + "/" + r.name(), Collectors.counting()));
        List<String> found = new ArrayList<>();
        writes.forEach((object, count) -> {
            String name = object.substring(object.indexOf('/') + 1);
            String role = name.substring(0, 1);
            long bound =
                    (long) WRITES_PER_ACTION * (1 + w.touches(object.substring(0, object.indexOf('/')), name, role));
            if (count > bound) {
                found.add(object + ": " + count + " writes by the operator, more than " + bound);
            }
        });
        return found;
    }

    /** Every Kyma of the control namespace is Ready, whatever the tenants' namespaces and webhooks do. */
    private static List<String> controlReady(FuzzWorld w) {
        List<Kyma> control = w.admin
                .resources(Kyma.class)
                .inNamespace(w.ns(FuzzWorld.CONTROL))
                .list()
                .getItems();
        List<String> found = new ArrayList<>();
        if (control.stream().noneMatch(k -> k.getMetadata().getName().equals(FuzzWorld.CONTROL))) {
            found.add("the control namespace's Kyma is gone");
        }
        for (Kyma kyma : control) {
            if (kyma.getStatus() == null || kyma.getStatus().getPhase() != KymaPhase.READY) {
                found.add("the control namespace's Kyma " + kyma.getMetadata().getName() + " is not Ready: "
                        + describe(kyma));
            }
        }
        return found;
    }

    /**
     * Each live Kyma's components are its desired state: one per module, with its spec, the operator's labels and a
     * controller reference to the Kyma's current uid; a component held by another live Kyma, or one the operator cannot
     * create, is named by the Kyma's status; no component it controls is left over.
     */
    private static List<String> desiredState(FuzzWorld w) {
        List<String> found = new ArrayList<>();
        for (var entry : w.namespaces().entrySet()) {
            String role = entry.getKey();
            String ns = entry.getValue();
            List<Kyma> kymas =
                    w.admin.resources(Kyma.class).inNamespace(ns).list().getItems();
            List<HelmComponent> components = w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(ns)
                    .list()
                    .getItems();
            Set<String> live = kymas.stream()
                    .filter(k -> k.getMetadata().getDeletionTimestamp() == null)
                    .map(k -> k.getMetadata().getUid())
                    .collect(Collectors.toSet());
            for (Kyma kyma : kymas) {
                if (kyma.getMetadata().getDeletionTimestamp() != null) {
                    continue;
                }
                String k = role + "/" + kyma.getMetadata().getName();
                String uid = kyma.getMetadata().getUid();
                Set<String> desired = new HashSet<>();
                boolean blocked = false;
                for (Module module : kyma.getSpec().getModules()) {
                    String name = kyma.getMetadata().getName() + "-" + module.getName();
                    desired.add(name);
                    HelmComponent c = find(components, name);
                    OwnerReference controller = c == null ? null : controller(c);
                    if (c == null || c.getMetadata().getDeletionTimestamp() != null) {
                        String blocker = c == null ? w.blocker(role) : name;
                        blocked = true;
                        if (blocker == null) {
                            found.add(k + ": component " + name + " missing");
                        } else if (!explains(w, role, kyma, blocker)) {
                            found.add(k + ": component " + name + " missing, and the status does not name why ("
                                    + blocker + "): " + describe(kyma));
                        }
                    } else if (controller != null && controller.getUid().equals(uid)) {
                        List<String> drift = drift(k, kyma, module, c);
                        blocked |= !drift.isEmpty();
                        found.addAll(drift);
                    } else if (controller != null && live.contains(controller.getUid())) {
                        blocked = true;
                        if (!mentions(kyma, name)) {
                            found.add(k + ": component " + name + " is controlled by Kyma " + controller.getName()
                                    + ", and the status does not name it: " + describe(kyma));
                        }
                    } else {
                        blocked = true;
                        found.add(k + ": component " + name + " not adopted; its controller reference is "
                                + (controller == null
                                        ? "none"
                                        : "to the uid of no live Kyma (" + controller.getName() + ")"));
                    }
                }
                for (HelmComponent c : components) {
                    OwnerReference controller = controller(c);
                    if (controller != null
                            && controller.getUid().equals(uid)
                            && !desired.contains(c.getMetadata().getName())
                            && c.getMetadata().getDeletionTimestamp() == null) {
                        found.add(k + ": component " + c.getMetadata().getName() + " controlled but not desired");
                    }
                }
                if (kyma.getStatus() == null
                        || !Objects.equals(
                                kyma.getStatus().getObservedGeneration(),
                                kyma.getMetadata().getGeneration())) {
                    found.add(k + ": status not about generation "
                            + kyma.getMetadata().getGeneration() + ": " + describe(kyma));
                } else if (!blocked && kyma.getStatus().getPhase() != KymaPhase.READY) {
                    // "blocked": some component is not as desired, and that finding says why
                    found.add(k + ": its components are as desired but it is not Ready: " + describe(kyma));
                }
            }
        }
        return found;
    }

    private static List<String> drift(String k, Kyma kyma, Module module, HelmComponent c) {
        List<String> found = new ArrayList<>();
        String name = c.getMetadata().getName();
        Map<String, String> labels =
                c.getMetadata().getLabels() == null ? Map.of() : c.getMetadata().getLabels();
        check(
                found,
                k,
                name,
                "spec.kyma",
                kyma.getMetadata().getName(),
                c.getSpec().getKyma());
        check(found, k, name, "spec.module", module.getName(), c.getSpec().getModule());
        check(found, k, name, "spec.version", module.getVersion(), c.getSpec().getVersion());
        check(found, k, name, "label kyma", kyma.getMetadata().getName(), labels.get(Labels.KYMA));
        check(found, k, name, "label module", module.getName(), labels.get(Labels.MODULE));
        check(found, k, name, "label managed-by", Labels.MANAGED_BY_VALUE, labels.get(Labels.MANAGED_BY));
        return found;
    }

    private static void check(List<String> found, String k, String name, String field, String want, String is) {
        if (!Objects.equals(want, is)) {
            found.add(k + ": component " + name + " drifted: " + field + " is " + is + ", not " + want);
        }
    }

    /** Stray components (not named as any Kyma's) keep the spec, labels and owners the tenant gave them. */
    private static List<String> foreignUntouched(FuzzWorld w) {
        List<String> found = new ArrayList<>();
        w.strays.forEach((key, written) -> {
            String role = key.substring(0, key.indexOf('/'));
            HelmComponent now = w.admin
                    .resources(HelmComponent.class)
                    .inNamespace(w.ns(role))
                    .withName(written.getMetadata().getName())
                    .get();
            if (now == null) {
                found.add(key + ": the tenant's component was deleted");
            } else if (!Objects.equals(
                            now.getMetadata().getLabels(), written.getMetadata().getLabels())
                    || !Objects.equals(
                            now.getMetadata().getOwnerReferences(),
                            written.getMetadata().getOwnerReferences())
                    || !Objects.equals(
                            now.getSpec().getKyma(), written.getSpec().getKyma())
                    || !Objects.equals(
                            now.getSpec().getModule(), written.getSpec().getModule())
                    || !Objects.equals(
                            now.getSpec().getVersion(), written.getSpec().getVersion())) {
                found.add(key + ": the tenant's component was changed: labels "
                        + now.getMetadata().getLabels()
                        + ", owners " + now.getMetadata().getOwnerReferences().size() + ", spec.kyma "
                        + now.getSpec().getKyma());
            }
        });
        return found;
    }

    /**
     * An object being deleted is gone, unless the tenant's finalizer holds it, or (a Kyma) one of its components is
     * held and its status names the finalizer.
     */
    private static List<String> deletionCompletes(FuzzWorld w) {
        List<String> found = new ArrayList<>();
        for (var entry : w.namespaces().entrySet()) {
            String ns = entry.getValue();
            for (Class<? extends HasMetadata> kind : List.of(Kyma.class, HelmComponent.class, Run.class)) {
                for (HasMetadata o :
                        w.admin.resources(kind).inNamespace(ns).list().getItems()) {
                    if (o.getMetadata().getDeletionTimestamp() == null
                            || o.getMetadata().getFinalizers().contains(FuzzWorld.HOLD)) {
                        continue;
                    }
                    String what = entry.getKey() + "/" + o.getKind() + " "
                            + o.getMetadata().getName();
                    if (o instanceof Kyma kyma && mentions(kyma, FuzzWorld.HOLD)) {
                        continue;
                    }
                    found.add(what + " is still being deleted, held by "
                            + o.getMetadata().getFinalizers()
                            + (o instanceof Kyma kyma ? "; its status: " + describe(kyma) : ""));
                }
            }
        }
        return found;
    }

    /** A Kyma that is not Ready, or a Run the operator has not started, says why. */
    private static List<String> statusNamesBlocker(FuzzWorld w) {
        List<String> found = new ArrayList<>();
        for (var entry : w.namespaces().entrySet()) {
            for (Kyma kyma : w.admin
                    .resources(Kyma.class)
                    .inNamespace(entry.getValue())
                    .list()
                    .getItems()) {
                if (kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY) {
                    continue;
                }
                if (kyma.getStatus() != null
                        && kyma.getStatus().getConditions().stream()
                                .anyMatch(c -> "Http-1".equals(c.getReason())
                                        || String.valueOf(c.getMessage()).contains("An error has occurred"))) {
                    found.add(entry.getKey() + "/" + kyma.getMetadata().getName()
                            + " tells a failed call as the client's placeholder, not what the API server said: "
                            + describe(kyma));
                }
                if (kyma.getStatus() == null
                        || kyma.getStatus().getConditions().stream()
                                .map(Condition::getMessage)
                                .allMatch(m -> m == null || m.isBlank())) {
                    found.add(
                            entry.getKey() + "/" + kyma.getMetadata().getName() + " is not Ready and names no reason");
                }
            }
            for (Run run : w.admin
                    .resources(Run.class)
                    .inNamespace(entry.getValue())
                    .list()
                    .getItems()) {
                if (run.getMetadata().getDeletionTimestamp() == null
                        && (run.getStatus() == null
                                || run.getStatus().getPhase() == null
                                        && (run.getStatus().getMessage() == null
                                                || run.getStatus().getMessage().isBlank()))) {
                    found.add(entry.getKey() + "/run " + run.getMetadata().getName()
                            + " has not started and names no reason");
                }
            }
        }
        return found;
    }

    /** A live Run has ended, or runs while its job runs; it ended Succeeded only if its job succeeded. */
    private static List<String> runsTrueToJobs(FuzzWorld w) {
        List<String> found = new ArrayList<>();
        Map<String, ScriptedJobService.Job> byKey =
                w.allJobs().stream().collect(Collectors.toMap(ScriptedJobService.Job::key, j -> j, (a, b) -> a));
        for (var entry : w.namespaces().entrySet()) {
            for (Run run : w.admin
                    .resources(Run.class)
                    .inNamespace(entry.getValue())
                    .list()
                    .getItems()) {
                if (run.getMetadata().getDeletionTimestamp() != null || run.getStatus() == null) {
                    continue;
                }
                String r = entry.getKey() + "/run " + run.getMetadata().getName();
                ScriptedJobService.Job job = byKey.get(run.getMetadata().getUid());
                RunPhase phase = run.getStatus().getPhase();
                if (phase == RunPhase.SUCCEEDED && (job == null || !job.state().equals("succeeded"))) {
                    found.add(r + " Succeeded, but its job is " + (job == null ? "unknown" : job.state()));
                } else if (phase != null && !phase.ended() && (job == null || !job.running())) {
                    found.add(r + " is " + phase + ", but its job is " + (job == null ? "unknown" : job.state()));
                }
            }
        }
        return found;
    }

    /** No job runs whose Run is gone, being deleted, or ended. */
    private static List<String> noJobLeftRunning(FuzzWorld w) {
        Set<String> runningRuns = new HashSet<>();
        for (String ns : w.namespaces().values()) {
            for (Run run : w.admin.resources(Run.class).inNamespace(ns).list().getItems()) {
                if (run.getMetadata().getDeletionTimestamp() == null
                        && (run.getStatus() == null
                                || run.getStatus().getPhase() == null
                                || !run.getStatus().getPhase().ended())) {
                    runningRuns.add(run.getMetadata().getUid());
                }
            }
        }
        return w.allJobs().stream()
                .filter(job -> job.running() && !runningRuns.contains(job.key()))
                .map(job -> "job " + job.id() + " runs, but its Run is gone, being deleted or ended")
                .toList();
    }

    private static HelmComponent find(List<HelmComponent> components, String name) {
        return components.stream()
                .filter(c -> c.getMetadata().getName().equals(name))
                .findFirst()
                .orElse(null);
    }

    private static OwnerReference controller(HasMetadata object) {
        return object.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()))
                .findFirst()
                .orElse(null);
    }

    /**
     * Whether the Kyma's status names the blocker; a webhook that hangs may also be told as the API server giving no
     * answer in time (the operator's own request deadline came first).
     */
    private static boolean explains(FuzzWorld w, String role, Kyma kyma, String blocker) {
        return mentions(kyma, blocker)
                || blocker.equals(FuzzWebhook.name(role))
                        && w.webhook.mode(role) == FuzzWebhook.Mode.HANG
                        && mentions(kyma, "no answer");
    }

    /** Whether the Kyma's status conditions name {@code text} (any case). */
    private static boolean mentions(Kyma kyma, String text) {
        String needle = text.toLowerCase(Locale.ROOT);
        return kyma.getStatus() != null
                && kyma.getStatus().getConditions().stream()
                        .anyMatch(c -> (c.getMessage() + " " + c.getReason())
                                .toLowerCase(Locale.ROOT)
                                .contains(needle));
    }

    private static String describe(Kyma kyma) {
        if (kyma == null) {
            return "gone";
        }
        if (kyma.getStatus() == null) {
            return "no status";
        }
        return kyma.getStatus().getPhase() + " "
                + kyma.getStatus().getConditions().stream()
                        .map(c -> c.getReason() + ": " + c.getMessage())
                        .collect(Collectors.joining("; "));
    }
}
