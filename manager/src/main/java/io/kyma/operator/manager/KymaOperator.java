package io.kyma.operator.manager;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.LeanCache;
import io.kyma.operator.common.MetadataCloner;
import io.kyma.operator.common.RecentWrites;
import io.kyma.operator.common.SharedStore;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.helmcomponent.HelmComponentForm;
import io.kyma.operator.helmcomponent.HelmComponentReconciler;
import io.kyma.operator.kyma.KymaForm;
import io.kyma.operator.kyma.KymaReconciler;
import io.kyma.operator.manager.guard.GuardedReconciler;
import io.kyma.operator.manager.guard.MissedExecutions;
import io.kyma.operator.manager.guard.ReconcileGuard;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.KymaProgress;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;
import io.kyma.operator.manager.metrics.StoreTally;
import io.kyma.operator.manager.queue.PrioritizingExecutor;
import io.kyma.operator.manager.shard.ShardAssigner;
import io.kyma.operator.manager.shard.ShardDrain;
import io.kyma.operator.manager.shard.ShardMover;
import io.kyma.operator.run.JobCalls;
import io.kyma.operator.run.RemoteJobClient;
import io.kyma.operator.run.RunForm;
import io.kyma.operator.run.RunReconciler;
import io.kyma.operator.run.RunSettings;
import io.kyma.operator.run.RunStatuses;
import io.kyma.operator.run.ServerAddresses;
import io.micrometer.core.instrument.FunctionCounter;

/**
 * The manager's runtime: one client, one {@link Operator} with every controller, the limiters they share and the
 * metrics. Built from the configuration in one place, for {@code Main} and the integration tests alike.
 */
public final class KymaOperator implements AutoCloseable {
    /** How long in-flight reconciles may run on after a stop was requested. */
    static final Duration GRACEFUL_STOP = Duration.ofSeconds(30);

    private final ManagerConfig config;
    private final Clock clock;
    private final OperatorMetrics metrics = new OperatorMetrics();
    private final KubernetesClient client;
    private final QueueMetrics queueMetrics;
    private final MissedExecutions missedExecutions;
    private final Optional<ShardAssigner> assigner;
    private final Optional<ShardMover> mover;
    private final Operator operator;
    private final RequeueLimiter requeueLimiter;
    private final GlobalGate gate;
    private final ScheduledThreadPoolExecutor watchdog;
    private final Optional<Leadership> leadership;
    /** The reconcile pool of all controllers: due reconciles before those that can wait. */
    private final PrioritizingExecutor reconcilePool;
    /** Each controller's word on which of its reconciles can wait, by controller name. */
    private final Map<String, WorkPriority<HasMetadata>> priorities = new ConcurrentHashMap<>();

    /** The manager with every controller of the product; losing the leader lease stops it without exiting. */
    public KymaOperator(ManagerConfig config, Config clientConfig, Clock clock, List<Interceptor> extraInterceptors) {
        this(config, clientConfig, clock, extraInterceptors, standardControllers(config, clock, clientConfig), false);
    }

    /** Every controller of the product. */
    public static List<Reconciler<?>> standardControllers(ManagerConfig config, Clock clock, Config clientConfig) {
        JobCalls calls = jobCalls(config, clock);
        return List.of(
                new HelmComponentReconciler(clock, config.transitionUnit()),
                new KymaReconciler(
                        clock,
                        config.kymaStatusInterval(),
                        new SharedStore<>(
                                Kyma.class.getSimpleName(),
                                LeanCache.store(new HelmComponentForm()),
                                config.temporaryCacheMax()),
                        config.effectiveAdmissionBacklog()),
                new RunReconciler(
                        clock,
                        new RunSettings(
                                config.remoteServerUrl(),
                                config.runPollInterval(),
                                config.runCleanupTimeout(),
                                config.remoteServerAllow(),
                                config.runStatusInterval()),
                        // a look-up thread per call in flight: no call's name waits behind another tenant's
                        new RemoteJobClient(
                                config.remoteConnectTimeout(),
                                config.remoteRequestTimeout(),
                                config.remoteResponseLimit(),
                                serverAddresses(config, clientConfig),
                                calls.maxInFlight()),
                        calls));
    }

    /**
     * The Run controller's calls to job services: at most {@code --remote-max-in-flight} at once, and fewer when that
     * many answers would not fit the answer budget, an eighth of the heap.
     */
    static JobCalls jobCalls(ManagerConfig config, Clock clock) {
        int inFlight = JobCalls.inFlightFor(answerBudget(), config.remoteResponseLimit(), config.remoteMaxInFlight());
        LoggerFactory.getLogger(KymaOperator.class)
                .info(
                        "Job service calls: at most {} in flight ({} asked;"
                                + " answer budget {} KiB, answers up to {} KiB), {} per server",
                        inFlight,
                        config.remoteMaxInFlight(),
                        answerBudget() >> 10,
                        config.remoteResponseLimit() >> 10,
                        config.remoteMaxInFlightPerServer());
        return new JobCalls(
                inFlight,
                config.remoteMaxInFlightPerServer(),
                answerBudget(),
                JobCalls.perCall(config.remoteResponseLimit()),
                config.failureBaseDelay(),
                config.failureMaxDelay(),
                clock,
                JobCalls.timerThread());
    }

    /**
     * Where Runs' calls may connect: not to this process's addresses nor the API server's (nor loopback, link-local
     * and the like), unless --remote-server-allow lists them.
     */
    static ServerAddresses serverAddresses(ManagerConfig config, Config clientConfig) {
        String apiServer = URI.create(clientConfig.getMasterUrl()).getHost();
        return new ServerAddresses(
                config.remoteServerAllow(),
                config.remoteServerUrl(),
                ServerAddresses.ownAddresses(apiServer == null ? List.of() : List.of(apiServer)));
    }

    /** The heap that job service answers in flight may take together. */
    static long answerBudget() {
        return Runtime.getRuntime().maxMemory() / 8;
    }

    /**
     * @param clientConfig where the API server is and how to log in
     * @param extraInterceptors more interceptors for the client, for example to record requests in tests
     * @param reconcilers the controllers to run, each behind the shared limiters
     */
    public KymaOperator(
            ManagerConfig config,
            Config clientConfig,
            Clock clock,
            List<Interceptor> extraInterceptors,
            List<Reconciler<?>> reconcilers) {
        this(config, clientConfig, clock, extraInterceptors, reconcilers, false);
    }

    /**
     * @param exitOnLostLease whether losing the leader lease ends the process (in production) or only stops this
     *        operator (in tests)
     */
    public KymaOperator(
            ManagerConfig config,
            Config clientConfig,
            Clock clock,
            List<Interceptor> extraInterceptors,
            List<Reconciler<?>> reconcilers,
            boolean exitOnLostLease) {
        this.config = config;
        this.clock = clock;
        this.leadership = config.leaderElect()
                ? Optional.of(new Leadership(exitOnLostLease, config.leaseTiming(), clock))
                : Optional.empty();
        List<Interceptor> interceptors = new ArrayList<>(extraInterceptors);
        leadership.ifPresent(l -> interceptors.add(l.renewals()));
        this.client = KubernetesClients.create(clientConfig, config, metrics, interceptors);
        this.queueMetrics = new QueueMetrics(metrics, clock, this::beforeSubmit);
        this.missedExecutions = new MissedExecutions(metrics::missedExecutions);
        queueMetrics.onMissedExecution(missedExecutions::release);
        this.assigner = config.shards().sharded()
                ? Optional.of(new ShardAssigner(client, config.shards(), metrics::shardAssignments, clock))
                : Optional.empty();
        // with leader election each shard's Lease says whether it runs; the leader of the lowest live shard moves
        // the objects of shards that are down, and hands objects on a live shard other than their own to theirs
        this.mover = config.shards().sharded() && config.leaderElect()
                ? Optional.of(new ShardMover(
                        client,
                        config.shards(),
                        config.leaderElectionId(),
                        config.leaderElectionNamespace()
                                .orElseGet(() -> client.getConfiguration().getNamespace()),
                        config.namespace(),
                        clock,
                        this::leading,
                        metrics::shardMoves,
                        metrics::shardDrains))
                : Optional.empty();
        for (String resource : List.of("kymas", "runs", "helmcomponents")) {
            metrics.shardAssignments(resource); // every series from the start, at zero when unsharded
            metrics.shardMoves(resource);
            metrics.shardDrains(resource);
            metrics.watchesEndedEarly(resource);
        }
        metrics.gauge(
                "kyma_operator_shard",
                config.shards(),
                s -> 1,
                "shard",
                Integer.toString(config.shards().id()),
                "shards",
                Integer.toString(config.shards().count()));
        this.requeueLimiter = new RequeueLimiter(
                config.failureBaseDelay(),
                config.failureMaxDelay(),
                new FairTokenQueue(config.rateLimiterFrequency(), config.rateLimiterBurst(), clock),
                clock,
                metrics.requeueLimiterWait()::record);
        // registered with the gate off too, so that the dashboard's panel and rates see an empty histogram
        var gateWait = metrics.globalGateWait();
        this.gate = config.maxReconcileRate() > 0
                ? new GlobalGate(
                        new FairTokenQueue(
                                config.maxReconcileRate(),
                                (int) Math.max(1, Math.ceil(config.maxReconcileRate())),
                                clock),
                        gateWait::record,
                        clock)
                : GlobalGate.OPEN;
        // reconcile timeouts and the lease's renew deadline
        this.watchdog = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("manager-watchdog"));
        watchdog.setRemoveOnCancelPolicy(true);
        leadership.ifPresent(l -> watchdog.scheduleWithFixedDelay(l::checkRenewal, 250, 250, TimeUnit.MILLISECONDS));
        this.reconcilePool =
                new PrioritizingExecutor(config.maxConcurrentReconciles(), config.lowPriorityMaxWait(), clock);
        metrics.gauge(
                "kyma_operator_reconciles_queued", reconcilePool, PrioritizingExecutor::queuedDue, "priority", "due");
        metrics.gauge(
                "kyma_operator_reconciles_queued",
                reconcilePool,
                PrioritizingExecutor::queuedCanWait,
                "priority",
                "can-wait");
        this.operator = new Operator(o -> o.withKubernetesClient(client)
                .withLeaderElectionConfiguration(
                        leadership.map(l -> l.configuration(config)).orElse(null))
                .withConcurrentReconciliationThreads(config.maxConcurrentReconciles())
                .withReconciliationTerminationTimeout(GRACEFUL_STOP)
                .withExecutorService(reconcilePool)
                // JOSDK copies the primary before every reconcile; for our kinds a copy of the metadata is enough.
                .withResourceCloner(new MetadataCloner(
                        Map.of(HelmComponent.class, HelmComponent::new, Kyma.class, Kyma::new, Run.class, Run::new),
                        new Cloner() {
                            @Override
                            public <R extends HasMetadata> R clone(R object) {
                                return client.getKubernetesSerialization().clone(object);
                            }
                        }))
                .withMetrics(queueMetrics)
                // Without comparing resourceVersions, a late watch event for an older version evicts the version a
                // reconcile just wrote from JOSDK's temporary cache, and the next status patch conflicts (409).
                .withParseResourceVersions(true)
                .withCloseClientOnStop(false));

        leadership.ifPresent(l -> l.onLoss(operator::stop));
        FunctionCounter.builder("kyma_operator_lean_cache_fallbacks", LeanCache.class, c -> LeanCache.fallbacks())
                .description("Informer objects kept whole because making them lean failed")
                .register(metrics.registry());
        // client-go's name: 1 while this replica reconciles (always without leader election), else 0
        metrics.gauge("leader_election_master_status", this, m -> m.leading() ? 1 : 0, "name", config.leaseName());
        // One HelmComponent informer for both controllers: the HelmComponent controller's, whose store the Kyma
        // controller reads.
        Optional<SharedStore<HelmComponent>> sharedComponents = reconcilers.stream()
                .filter(KymaReconciler.class::isInstance)
                .map(r -> ((KymaReconciler) r).componentStore())
                .findFirst();
        if (sharedComponents.isPresent() && reconcilers.stream().noneMatch(HelmComponentReconciler.class::isInstance)) {
            throw new IllegalArgumentException(
                    "the Kyma controller reads the HelmComponent controller's informer;" + " register both");
        }
        for (Reconciler<?> reconciler : reconcilers) {
            SharedStore<?> store = reconciler instanceof HelmComponentReconciler && sharedComponents.isPresent()
                    ? sharedComponents.get()
                    : new SharedStore<>(null, items(reconciler), config.temporaryCacheMax());
            Controller<?> controller = register(reconciler, store);
            if (reconciler instanceof HelmComponentReconciler helmComponents) {
                helmComponents.recordLatenessWith(metrics.transitionLateness()::record);
                SharedStore<HelmComponent> components = cast(store);
                components.syncedWhen(() -> synced(controller));
                StoreTally<HelmComponent> states = new StoreTally<>(
                        components,
                        c -> c.getStatus() == null || c.getStatus().getState() == null
                                ? null
                                : c.getStatus().getState().wireName());
                for (ComponentState state : ComponentState.values()) {
                    metrics.gauge(
                            "kyma_operator_helmcomponents",
                            states,
                            t -> t.count(state.wireName()),
                            "state",
                            state.wireName());
                }
            } else if (reconciler instanceof KymaReconciler kymaReconciler) {
                SharedStore<Kyma> kymas = cast(store);
                kymas.onChange(kymaReconciler::changed);
                kymaReconciler.measureComponentQueue(ns -> queueMetrics.queued(HelmComponentReconciler.NAME, ns));
                metrics.gauge("kyma_operator_admission_waiting", kymaReconciler.admission(), a -> a.waiting());
                StoreTally<Kyma> phases = new StoreTally<>(
                        cast(store),
                        k -> k.getStatus() == null || k.getStatus().getPhase() == null
                                ? null
                                : k.getStatus().getPhase().toString());
                for (KymaPhase phase : KymaPhase.values()) {
                    metrics.gauge(
                            "kyma_operator_kymas", phases, t -> t.count(phase.toString()), "phase", phase.toString());
                }
                metrics.gauge(
                        "kyma_operator_temporary_cache_entries",
                        kymaReconciler,
                        KymaReconciler::pendingCreates,
                        "cache",
                        "created-helmcomponents");
                new KymaProgress(kymas, clock, metrics);
            } else if (reconciler instanceof RunReconciler runs) {
                metrics.gauge("kyma_operator_job_calls", runs.calls(), JobCalls::inFlight, "state", "in-flight");
                metrics.gauge("kyma_operator_job_calls", runs.calls(), JobCalls::waitingCalls, "state", "waiting");
                metrics.gauge("kyma_operator_job_calls_max_in_flight", runs.calls(), JobCalls::maxInFlight);
                for (String outcome : List.of("answered", "failed")) {
                    FunctionCounter.builder(
                                    "kyma_operator_job_calls_finished",
                                    runs.calls(),
                                    c -> outcome.equals("failed") ? c.failedCalls() : c.answeredCalls())
                            .description("Job service calls that ended, by outcome")
                            .tag("outcome", outcome)
                            .register(metrics.registry());
                }
                StoreTally<Run> unreachable =
                        new StoreTally<>(cast(store), r -> RunStatuses.unreachable(r) ? "unreachable" : null);
                metrics.gauge("kyma_operator_runs_unreachable", unreachable, t -> t.count("unreachable"));
            }
            RecentWrites recent = store.recentWrites();
            metrics.gauge(
                    "kyma_operator_temporary_cache_entries",
                    recent,
                    RecentWrites::size,
                    "cache",
                    controller.getConfiguration().getName());
            FunctionCounter.builder("kyma_operator_temporary_cache_refused", recent, RecentWrites::refused)
                    .tag("cache", controller.getConfiguration().getName())
                    .description("Write answers not kept for read after write because the cache was full")
                    .register(metrics.registry());
            FunctionCounter.builder("kyma_operator_temporary_cache_restored", recent, RecentWrites::restored)
                    .tag("cache", controller.getConfiguration().getName())
                    .description("Reconciles handed the controller's last write because a late watch event had taken"
                            + " it out of JOSDK's temporary cache")
                    .register(metrics.registry());
        }
    }

    /** How the informer of {@code reconciler}'s primary resources keeps them. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ItemStore items(Reconciler<?> reconciler) {
        if (reconciler instanceof HelmComponentReconciler) {
            return LeanCache.store(new HelmComponentForm());
        } else if (reconciler instanceof KymaReconciler) {
            return LeanCache.store(new KymaForm());
        } else if (reconciler instanceof RunReconciler) {
            return LeanCache.store(new RunForm());
        }
        return new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object typed) {
        return (T) typed;
    }

    public void start() {
        assigner.ifPresent(a -> a.start(config.namespace()));
        mover.ifPresent(ShardMover::start);
        operator.start();
    }

    /** Serves /metrics and the probes on the configured addresses; the caller closes them. */
    public ManagerEndpoints serveEndpoints() {
        return new ManagerEndpoints(config, metrics::scrape, this::ready);
    }

    /**
     * Ready once the operator has started and every informer has synced and is healthy, leader or not: followers keep
     * their informers running (JOSDK starts them on every replica and only the processing on the leader), so that a
     * two-replica Deployment is Available and a rolling update can go on while one replica leads.
     */
    public boolean ready() {
        var info = operator.getRuntimeInfo();
        return info.isStarted() && info.allEventSourcesAreHealthy();
    }

    /** Whether this manager reconciles: always without leader election, else while it holds the lease. */
    public boolean leading() {
        return leadership.map(Leadership::leading).orElse(true);
    }

    /** When this manager became the leader and when it stopped leading, if it did. */
    public Optional<Instant> leadingSince() {
        return leadership.flatMap(Leadership::leadingSince);
    }

    public Optional<Instant> stoppedLeadingAt() {
        return leadership.flatMap(Leadership::stoppedAt);
    }

    public KubernetesClient client() {
        return client;
    }

    public Operator operator() {
        return operator;
    }

    public OperatorMetrics metrics() {
        return metrics;
    }

    /** Stops reconciling (in-flight reconciles finish), then closes the client. */
    @Override
    public void close() {
        assigner.ifPresent(ShardAssigner::close);
        mover.ifPresent(ShardMover::close);
        operator.stop();
        watchdog.shutdownNow();
        client.close();
    }

    /** Whether the controller's own informers have listed everything once. */
    private static boolean synced(Controller<?> controller) {
        var indicators =
                controller.getEventSourceManager().getControllerEventSource().informerHealthIndicators();
        return !indicators.isEmpty() && indicators.values().stream().allMatch(i -> i.hasSynced());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Controller<?> register(Reconciler reconciler, ItemStore<?> store) {
        return registerTyped(reconciler, (ItemStore) store);
    }

    /** @param store the informer's store */
    @SuppressWarnings("unchecked")
    private <P extends HasMetadata> Controller<P> registerTyped(Reconciler<P> reconciler, ItemStore<P> store) {
        var configuration = operator.getConfigurationService().getConfigurationFor(reconciler);
        var overrider = ControllerConfigurationOverrider.override(configuration);
        config.namespace().ifPresentOrElse(overrider::settingNamespace, overrider::watchingAllNamespaces);
        // Failures are turned into limited reschedules by the guard; JOSDK's own retry is only a safety net.
        overrider.withRetry(new GenericRetry()
                .setInitialInterval(config.failureBaseDelay().toMillis())
                .setIntervalMultiplier(2)
                .setMaxInterval(config.failureMaxDelay().toMillis())
                .withoutMaxAttempts());
        overrider.withReconciliationMaxInterval(config.syncPeriod());
        overrider.withItemStore(store);
        if (config.shards().sharded()) {
            overrider.withLabelSelector(config.shards().selector());
            // a drain changes a label only, which the generation does not show: this filter lets it through too
            overrider.withGenerationAware(false);
            overrider.withOnUpdateFilter(
                    ShardDrain.updates(reconciler instanceof Cleaner<?> ? configuration.getFinalizerName() : null));
        }
        // Unpaged, a relist of tens of thousands of objects outlasts the client's request timeout and never succeeds.
        overrider.withInformerListLimit(config.informerListLimit() > 0 ? config.informerListLimit() : null);
        var built = overrider.build();
        if (reconciler instanceof WorkPriority<?> priority) {
            priorities.put(built.getName(), (WorkPriority<HasMetadata>) priority);
        }
        metrics.maxConcurrentReconciles(built.getName(), config.maxConcurrentReconciles());
        queueMetrics.measureWorkInProgress(built.getName());
        metrics.missedExecutions(built.getName());
        ReconcileGuard guard = new ReconcileGuard(
                built.getName(),
                requeueLimiter,
                gate,
                config.reconcileTimeout(),
                config.syncPeriod(),
                clock,
                watchdog,
                metrics);
        Controller<P> controller = (Controller<P>) operator.register(
                GuardedReconciler.wrap(
                        reconciler, guard, config.shards().sharded() ? ShardDrain::answer : ShardDrain.Responder.NONE),
                built);
        missedExecutions.register(controller);
        return controller;
    }

    /**
     * Queues the reconcile JOSDK is about to hand to the pool in its namespace's flow, in the lane its controller
     * chooses.
     */
    private void beforeSubmit(String controller, HasMetadata resource) {
        WorkPriority<HasMetadata> priority = priorities.get(controller);
        boolean canWait = false;
        try {
            canWait = priority != null && priority.canWait(resource);
        } catch (RuntimeException e) {
            // JOSDK 5.2.3 calls this after marking the resource under processing and before it queues the reconcile:
            // an exception here would leave the resource marked for ever, never reconciled again. Due work it is.
            LoggerFactory.getLogger(KymaOperator.class)
                    .warn(
                            "{} {}: cannot tell whether its reconcile can" + " wait; it is due",
                            controller,
                            resource.getMetadata().getName(),
                            e);
        }
        reconcilePool.next(resource.getMetadata().getNamespace(), canWait);
    }
}
