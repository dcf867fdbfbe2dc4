package io.kyma.operator.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.Cloner;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.MetadataCloner;
import io.kyma.operator.common.cache.RecentWrites;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.manager.guard.GuardedReconciler;
import io.kyma.operator.manager.guard.MissedExecutions;
import io.kyma.operator.manager.guard.ReconcileGuard;
import io.kyma.operator.manager.leader.Leadership;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.GlobalGate;
import io.kyma.operator.manager.limits.RequeueLimiter;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;
import io.kyma.operator.manager.queue.PrioritizingExecutor;
import io.kyma.operator.manager.shard.Sharding;
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
    private final Sharding sharding;
    private final List<ControllerSpec<?>> controllers;
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
        this(
                config,
                clientConfig,
                clock,
                extraInterceptors,
                StandardControllers.of(config, clock, clientConfig),
                false);
    }

    /**
     * A manager of other controllers (tests): each keeps whole objects in its informer, and its reconciles are all due.
     *
     * @param clientConfig where the API server is and how to log in
     * @param extraInterceptors more interceptors for the client, for example to record requests in tests
     * @param reconcilers the controllers to run, each behind the shared limiters
     */
    public static KymaOperator of(
            ManagerConfig config,
            Config clientConfig,
            Clock clock,
            List<Interceptor> extraInterceptors,
            List<Reconciler<?>> reconcilers) {
        List<ControllerSpec<?>> specs = new ArrayList<>();
        for (Reconciler<?> reconciler : reconcilers) {
            specs.add(ControllerSpec.plain(reconciler, config.temporaryCacheMax()));
        }
        return new KymaOperator(config, clientConfig, clock, extraInterceptors, specs, false);
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
            List<ControllerSpec<?>> controllers,
            boolean exitOnLostLease) {
        this.config = config;
        this.clock = clock;
        this.controllers = List.copyOf(controllers);
        this.leadership = config.leaderElect()
                ? Optional.of(new Leadership(exitOnLostLease, config.leaseTiming(), clock))
                : Optional.empty();
        List<Interceptor> interceptors = new ArrayList<>(extraInterceptors);
        leadership.ifPresent(l -> interceptors.add(l.renewals()));
        this.client = KubernetesClients.create(clientConfig, config, metrics, interceptors);
        this.queueMetrics = new QueueMetrics(metrics, clock, this::beforeSubmit);
        this.missedExecutions = new MissedExecutions(metrics::missedExecutions);
        queueMetrics.onMissedExecution(missedExecutions::release);
        this.sharding = new Sharding(
                client,
                config.shards(),
                config.leaderElect()
                        ? Optional.of(new Sharding.Leases(
                                config.leaderElectionId(),
                                config.leaderElectionNamespace()
                                        .orElseGet(
                                                () -> client.getConfiguration().getNamespace())))
                        : Optional.empty(),
                config.namespace(),
                clock,
                this::leading,
                metrics);
        for (String resource : List.of("kymas", "runs", "helmcomponents")) {
            metrics.watchesEndedEarly(resource);
        }
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
                .withLeaderElectionConfiguration(leadership
                        .map(l -> l.configuration(
                                config.leaseName(),
                                config.leaderElectionNamespace().orElse(null)))
                        .orElse(null))
                .withConcurrentReconciliationThreads(config.maxConcurrentReconciles())
                .withReconciliationTerminationTimeout(GRACEFUL_STOP)
                .withExecutorService(reconcilePool)
                // JOSDK copies the primary before every reconcile; for our kinds a copy of the metadata is enough.
                .withResourceCloner(new MetadataCloner(freshResources(controllers), new Cloner() {
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
        for (ControllerSpec<?> spec : controllers) {
            SharedStore<?> store = spec.store();
            Controller<?> controller = register(spec);
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

    /** For each kind whose primaries JOSDK may copy by their metadata alone, how to make an empty one. */
    private static Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> freshResources(
            List<ControllerSpec<?>> controllers) {
        Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> fresh = new HashMap<>();
        for (ControllerSpec<?> spec : controllers) {
            spec.fresh().ifPresent(supplier -> fresh.put(supplier.get().getClass(), supplier));
        }
        return fresh;
    }

    public void start() {
        sharding.start(config.namespace());
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
        sharding.close();
        operator.stop();
        for (ControllerSpec<?> spec : controllers) {
            try {
                spec.resources().close();
            } catch (Exception e) {
                LoggerFactory.getLogger(KymaOperator.class).warn("Closing {}: {}", spec.reconciler(), e.toString());
            }
        }
        watchdog.shutdownNow();
        client.close();
    }

    private <P extends HasMetadata> Controller<P> register(ControllerSpec<P> spec) {
        Controller<P> controller = registerTyped(spec.reconciler(), spec.store(), spec.priority());
        spec.wiring().wire(new ControllerSpec.Registered<>(spec.store(), controller, metrics, queueMetrics, clock));
        return controller;
    }

    /** @param store the informer's store */
    @SuppressWarnings("unchecked")
    private <P extends HasMetadata> Controller<P> registerTyped(
            Reconciler<P> reconciler, ItemStore<P> store, WorkPriority<P> priority) {
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
        sharding.configure(overrider, reconciler instanceof Cleaner<?> ? configuration.getFinalizerName() : null);
        // Unpaged, a relist of tens of thousands of objects outlasts the client's request timeout and never succeeds.
        overrider.withInformerListLimit(config.informerListLimit() > 0 ? config.informerListLimit() : null);
        var built = overrider.build();
        priorities.put(built.getName(), (WorkPriority<HasMetadata>) priority);
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
        Controller<P> controller = (Controller<P>)
                operator.register(GuardedReconciler.wrap(reconciler, guard, sharding.responder()), built);
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
