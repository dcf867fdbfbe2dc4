package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.awaitility.Awaitility;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.helmcomponent.ComponentLifecycle;
import io.kyma.operator.manager.History;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.LifecycleOracle;
import io.kyma.operator.testing.Namespaces;

/**
 * One run of a scenario's load, with faults or without, in a namespace of its own: it opens the watch that the oracle
 * reads before the load is created, marks when the faults began and ended, waits until everything is in a final state,
 * and then judges what it saw.
 */
final class Trial implements AutoCloseable {

    private final KubernetesClient admin;
    private final String namespace;
    private final ChaosLoad load;
    private final History history;
    private Instant created;
    private Instant faultsBegan;
    private Instant faultsEnded;
    private Instant converged;
    private ReplicaMetrics.Snapshot atFaultStart;
    private ReplicaMetrics.Snapshot atFaultEnd;

    Trial(KubernetesClient admin, String namespace, ChaosLoad load) {
        this.admin = admin;
        this.namespace = Namespaces.apply(admin, namespace);
        this.load = load;
        this.history = new History(admin, namespace);
    }

    String namespace() {
        return namespace;
    }

    void createLoad() {
        load.create(admin, namespace);
        created = Instant.now();
    }

    /**
     * Waits until {@code offset} after the last object of the load was created: the schedule of a scenario's faults.
     * It counts from the end of the creates, because under a full load they take seconds (the operator is already
     * busy with the first Kymas), so that the fault window falls on the same part of the work in every run.
     */
    void at(Duration offset) {
        until(created.plus(offset));
    }

    /** Waits until {@code instant}, a point of a scenario's fault schedule. */
    static void until(Instant instant) {
        while (Instant.now().isBefore(instant)) {
            LockSupport.parkNanos(Duration.between(Instant.now(), instant).toNanos());
        }
    }

    /** Marks the start of the fault window; {@code metrics} is what the operator counted so far (may be null). */
    void faultsBegin(ReplicaMetrics.Snapshot metrics) {
        faultsBegan = Instant.now();
        atFaultStart = metrics;
    }

    void faultsEnd(ReplicaMetrics.Snapshot metrics) {
        faultsEnded = Instant.now();
        atFaultEnd = metrics;
    }

    /**
     * Waits until every Kyma is Ready or Error and every Run has ended. The deadline only catches a load that hangs: a
     * busy machine takes several times as long as a quiet one, and how long it took is what {@code converged} reports,
     * not something a run fails on.
     */
    void awaitSettled() {
        Awaitility.await()
                .atMost(HangCatcher.LOAD)
                .pollInterval(Duration.ofMillis(100))
                .until(this::settled);
        converged = Instant.now();
    }

    /**
     * Waits for a condition of the scenario, such as every Run having started its job. The deadline only catches a
     * hang ({@link HangCatcher#STEP}): it is never the thing a scenario measures.
     */
    void until(Supplier<Boolean> condition) {
        Awaitility.await()
                .atMost(HangCatcher.STEP)
                .pollInterval(Duration.ofMillis(50))
                .until(condition::get);
    }

    private boolean settled() {
        for (Kyma kyma :
                admin.resources(Kyma.class).inNamespace(namespace).list().getItems()) {
            KymaPhase phase = kyma.getStatus() == null ? null : kyma.getStatus().getPhase();
            if (phase != KymaPhase.READY && phase != KymaPhase.ERROR) {
                return false;
            }
        }
        for (Run run : admin.resources(Run.class).inNamespace(namespace).list().getItems()) {
            RunPhase phase = run.getStatus() == null ? null : run.getStatus().getPhase();
            if (phase != RunPhase.SUCCEEDED && phase != RunPhase.FAILED) {
                return false;
            }
        }
        return true;
    }

    /**
     * What happened, judged: the end states, the component oracle on the watch's history, the jobs each Run started,
     * how long after the faults everything settled, and the requests and reconciles of the fault window.
     */
    Outcome outcome(JobServer jobs, List<ApiFaultProxy> proxies) {
        return outcome(jobs, proxies, watchedComponents(), null);
    }

    /**
     * @param components every version of every component, in the order they were written
     * @param atEnd the operator's metrics now, when no proxy counted its requests (null otherwise): the requests then
     *        come from its own {@code rest_client_requests_total}
     */
    Outcome outcome(
            JobServer jobs,
            List<ApiFaultProxy> proxies,
            List<HelmComponent> components,
            ReplicaMetrics.Snapshot atEnd) {
        Map<String, String> kymas = new TreeMap<>();
        for (Kyma kyma :
                admin.resources(Kyma.class).inNamespace(namespace).list().getItems()) {
            kymas.put(
                    kyma.getMetadata().getName(),
                    String.valueOf(kyma.getStatus().getPhase()));
        }
        Map<String, String> runs = new TreeMap<>();
        Map<String, Long> starts = new TreeMap<>();
        Map<String, Long> perKey = jobs.jobsStartedPerKey();
        for (Run run : admin.resources(Run.class).inNamespace(namespace).list().getItems()) {
            String name = run.getMetadata().getName();
            String phase = run.getStatus().getPhase().name();
            runs.put(name, phase.charAt(0) + phase.substring(1).toLowerCase(Locale.ROOT) + "/" + reason(run));
            starts.put(name, perKey.getOrDefault(run.getMetadata().getUid(), 0L));
        }
        long requests = 0;
        long total = 0;
        long injected = 0;
        for (ApiFaultProxy proxy : proxies) {
            requests += proxy.exchanges().stream()
                    .filter(e -> !e.watch() && within(e.start()))
                    .count();
            total += proxy.exchanges().stream().filter(e -> !e.watch()).count();
            injected += proxy.exchanges().stream()
                    .filter(ApiFaultProxy.Exchange::injected)
                    .count();
        }
        if (atEnd != null) {
            requests = atFaultStart == null
                    ? 0
                    : Math.round(atFaultEnd.minus(atFaultStart).requests());
            total = Math.round(atEnd.requests());
        }
        Instant end = faultsEnded == null ? created : faultsEnded;
        return new Outcome(
                kymas,
                runs,
                componentVerdict(components),
                starts,
                Duration.between(end, converged),
                faultsBegan == null ? Duration.ZERO : Duration.between(faultsBegan, faultsEnded),
                requests,
                total,
                injected,
                atFaultStart == null || atFaultEnd == null ? null : atFaultEnd.minus(atFaultStart));
    }

    private boolean within(Instant at) {
        return faultsBegan != null && !at.isBefore(faultsBegan) && !at.isAfter(faultsEnded);
    }

    private static String reason(Run run) {
        return run.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("Succeeded"))
                .map(c -> c.getReason())
                .findFirst()
                .orElse("-");
    }

    /** Every version of every component that the trial's watch delivered, in order. */
    List<HelmComponent> watchedComponents() {
        List<HelmComponent> versions = new ArrayList<>();
        for (History.Event event : history.events()) {
            if (event.object() instanceof HelmComponent c) {
                versions.add(c);
            }
        }
        return versions;
    }

    /** The lifecycle oracle on these component versions. */
    LifecycleOracle.Verdict componentVerdict(List<HelmComponent> versions) {
        ComponentLifecycle lifecycle = new ComponentLifecycle(load.unit());
        LifecycleOracle oracle = new LifecycleOracle(
                List.of("pending", "started", "failing", "retrying", "success"),
                (name, state) -> lifecycle
                        .dwell(ComponentState.valueOf(state.toUpperCase()), module(name))
                        .orElse(Duration.ZERO));
        List<LifecycleOracle.Observation> seen = new ArrayList<>();
        for (HelmComponent c : versions) {
            if (c.getStatus() != null && c.getStatus().getState() != null) {
                seen.add(new LifecycleOracle.Observation(
                        c.getMetadata().getName(),
                        c.getStatus().getState().wireName(),
                        Instant.parse(c.getStatus().getLastTransitionTime())));
            }
        }
        return oracle.judge(seen);
    }

    /** Why the trial's own watch ended early, if it did: then its history, and what is judged from it, is partial. */
    Optional<String> watchBroke() {
        return history.broken();
    }

    /** Every version of a Run that the watch saw. */
    List<Run> runVersions(String name) {
        return history.runVersions(name);
    }

    /** k3-cluster-essentials is module cluster-essentials of Kyma k3. */
    private static String module(String component) {
        return component.substring(component.indexOf('-') + 1);
    }

    @Override
    public void close() {
        history.close();
    }
}
