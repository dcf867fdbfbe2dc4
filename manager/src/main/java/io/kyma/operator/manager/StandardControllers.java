package io.kyma.operator.manager;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.Config;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.helmcomponent.HelmComponentForm;
import io.kyma.operator.helmcomponent.HelmComponentReconciler;
import io.kyma.operator.kyma.KymaForm;
import io.kyma.operator.kyma.KymaReconciler;
import io.kyma.operator.manager.config.JobServiceSettings;
import io.kyma.operator.manager.config.KymaSettings;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.config.RetrySettings;
import io.kyma.operator.manager.metrics.KymaProgress;
import io.kyma.operator.manager.metrics.StoreTally;
import io.kyma.operator.run.JobCalls;
import io.kyma.operator.run.RemoteJobClient;
import io.kyma.operator.run.RunForm;
import io.kyma.operator.run.RunReconciler;
import io.kyma.operator.run.RunStatuses;
import io.kyma.operator.run.ServerAddresses;
import io.micrometer.core.instrument.FunctionCounter;

/**
 * The product: which controllers the manager runs and how they are put together. One HelmComponent informer serves
 * both the HelmComponent controller and the Kyma controller, which reads its store by owner; every informer keeps its
 * objects lean ({@link LeanCache}).
 */
public final class StandardControllers {
    private StandardControllers() {}

    public static List<ControllerSpec<?>> of(ManagerConfig config, Clock clock, Config clientConfig) {
        KymaSettings kyma = config.kyma();
        JobServiceSettings settings = config.jobs();
        int cacheMax = config.reconcile().temporaryCacheMax();
        SharedStore<HelmComponent> components =
                new SharedStore<>(Kyma.class.getSimpleName(), LeanCache.store(new HelmComponentForm()), cacheMax);
        HelmComponentReconciler helmComponents = new HelmComponentReconciler(clock, kyma.transitionUnit());
        KymaReconciler kymas = new KymaReconciler(
                clock,
                kyma.statusInterval(),
                components,
                kyma.effectiveAdmissionBacklog(config.reconcile().maxConcurrentReconciles()));
        JobCalls.Timer timer = JobCalls.timerThread(); // the calls' times, and their request timeouts
        JobCalls calls = jobCalls(settings, config.retry(), clock, timer);
        // a look-up thread per call in flight: no call's name waits behind another tenant's
        RemoteJobClient jobs = new RemoteJobClient(
                settings.connectTimeout(),
                settings.requestTimeout(),
                settings.responseLimit(),
                serverAddresses(settings, clientConfig),
                calls.maxInFlight(),
                timer);
        RunReconciler runs = new RunReconciler(clock, settings.runSettings(), jobs, calls);
        return List.of(
                new ControllerSpec<>(
                        helmComponents,
                        components,
                        helmComponents,
                        registered -> wire(helmComponents, registered),
                        Optional.of(HelmComponent::new),
                        () -> {}),
                new ControllerSpec<>(
                        kymas,
                        new SharedStore<>(null, LeanCache.store(new KymaForm()), cacheMax),
                        kymas,
                        registered -> wire(kymas, registered),
                        Optional.of(Kyma::new),
                        () -> {}),
                new ControllerSpec<>(
                        runs,
                        new SharedStore<>(null, LeanCache.store(new RunForm()), cacheMax),
                        runs,
                        registered -> wire(runs, registered),
                        Optional.of(Run::new),
                        jobs));
    }

    private static void wire(HelmComponentReconciler reconciler, ControllerSpec.Registered<HelmComponent> registered) {
        registered.metrics().watchesEndedEarly("helmcomponents");
        reconciler.recordLatenessWith(registered.metrics().transitionLateness()::record);
        registered.store().syncedWhen(registered::synced);
        StoreTally<HelmComponent> states = new StoreTally<>(
                registered.store(),
                c -> c.getStatus() == null || c.getStatus().getState() == null
                        ? null
                        : c.getStatus().getState().wireName());
        for (ComponentState state : ComponentState.values()) {
            registered
                    .metrics()
                    .gauge(
                            "kyma_operator_helmcomponents",
                            states,
                            t -> t.count(state.wireName()),
                            "state",
                            state.wireName());
        }
    }

    private static void wire(KymaReconciler reconciler, ControllerSpec.Registered<Kyma> registered) {
        var metrics = registered.metrics();
        metrics.watchesEndedEarly("kymas");
        reconciler.tellWith(registered.events());
        registered.store().onChange(reconciler::changed);
        reconciler.measureComponentQueue(ns -> registered.queue().queued(HelmComponentReconciler.NAME, ns));
        metrics.gauge("kyma_operator_admission_waiting", reconciler.admission(), a -> a.waiting());
        StoreTally<Kyma> phases = new StoreTally<>(
                registered.store(),
                k -> k.getStatus() == null || k.getStatus().getPhase() == null
                        ? null
                        : k.getStatus().getPhase().toString());
        for (KymaPhase phase : KymaPhase.values()) {
            metrics.gauge("kyma_operator_kymas", phases, t -> t.count(phase.toString()), "phase", phase.toString());
        }
        metrics.gauge(
                "kyma_operator_temporary_cache_entries",
                reconciler,
                KymaReconciler::pendingCreates,
                "cache",
                "created-helmcomponents");
        new KymaProgress(registered.store(), registered.clock(), metrics);
    }

    private static void wire(RunReconciler reconciler, ControllerSpec.Registered<Run> registered) {
        var metrics = registered.metrics();
        metrics.watchesEndedEarly("runs");
        reconciler.tellWith(registered.events());
        JobCalls calls = reconciler.calls();
        metrics.gauge("kyma_operator_job_calls", calls, JobCalls::inFlight, "state", "in-flight");
        metrics.gauge("kyma_operator_job_calls", calls, JobCalls::waitingCalls, "state", "waiting");
        metrics.gauge("kyma_operator_job_calls_max_in_flight", calls, JobCalls::maxInFlight);
        for (String outcome : List.of("answered", "failed")) {
            FunctionCounter.builder(
                            "kyma_operator_job_calls_finished",
                            calls,
                            c -> outcome.equals("failed") ? c.failedCalls() : c.answeredCalls())
                    .description("Job service calls that ended, by outcome")
                    .tag("outcome", outcome)
                    .register(metrics.registry());
        }
        StoreTally<Run> unreachable =
                new StoreTally<>(registered.store(), r -> RunStatuses.unreachable(r) ? "unreachable" : null);
        metrics.gauge("kyma_operator_runs_unreachable", unreachable, t -> t.count("unreachable"));
    }

    /**
     * The Run controller's calls to job services: at most {@code --remote-max-in-flight} at once, and fewer when that
     * many answers would not fit the answer budget, an eighth of the heap.
     */
    static JobCalls jobCalls(JobServiceSettings settings, RetrySettings retry, Clock clock, JobCalls.Timer timer) {
        int inFlight = JobCalls.inFlightFor(answerBudget(), settings.responseLimit(), settings.maxInFlight());
        LoggerFactory.getLogger(StandardControllers.class)
                .info(
                        "Job service calls: at most {} in flight ({} asked; answer budget {} KiB, answers up to {}"
                                + " KiB), {} per server",
                        inFlight,
                        settings.maxInFlight(),
                        answerBudget() >> 10,
                        settings.responseLimit() >> 10,
                        settings.maxInFlightPerServer());
        return new JobCalls(
                inFlight,
                settings.maxInFlightPerServer(),
                answerBudget(),
                JobCalls.perCall(settings.responseLimit()),
                retry.baseDelay(),
                retry.maxDelay(),
                clock,
                timer);
    }

    /**
     * Where Runs' calls may connect: not to this process's addresses nor the API server's (nor loopback, link-local
     * and the like), unless --remote-server-allow lists them.
     */
    static ServerAddresses serverAddresses(JobServiceSettings settings, Config clientConfig) {
        String apiServer = URI.create(clientConfig.getMasterUrl()).getHost();
        return new ServerAddresses(
                settings.serverAllow(),
                settings.defaultServer(),
                ServerAddresses.ownAddresses(apiServer == null ? List.of() : List.of(apiServer)));
    }

    /** The heap that job service answers in flight may take together. */
    static long answerBudget() {
        return Runtime.getRuntime().maxMemory() / 8;
    }
}
