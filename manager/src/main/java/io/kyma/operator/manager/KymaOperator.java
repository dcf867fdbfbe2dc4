package io.kyma.operator.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.AggregatedMetrics;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.events.EventRecorder;
import io.kyma.operator.manager.config.EndpointSettings;
import io.kyma.operator.manager.config.LeaderSettings;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.config.ReconcileSettings;
import io.kyma.operator.manager.guard.Guards;
import io.kyma.operator.manager.guard.MissedExecutions;
import io.kyma.operator.manager.leader.Leadership;
import io.kyma.operator.manager.memory.HeapReturner;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.QueueMetrics;
import io.kyma.operator.manager.queue.PrioritizingExecutor;
import io.kyma.operator.manager.secure.SecureMetrics;
import io.kyma.operator.manager.shard.Sharding;

/**
 * The manager's runtime: one client, one {@link Operator} with every controller, the limiters they share and the
 * metrics. Built from the configuration in one place, for {@code Main} and the integration tests alike; it knows the
 * controllers only by their {@link ControllerSpec}.
 */
public final class KymaOperator implements AutoCloseable {
    /** How long in-flight reconciles may run on after a stop was requested. */
    static final Duration GRACEFUL_STOP = Duration.ofSeconds(30);

    private final ReconcileSettings reconcile;
    private final EndpointSettings endpoints;
    private final Clock clock;
    private final OperatorMetrics metrics = new OperatorMetrics();
    private final KubernetesClient client;
    private final Sharding sharding;
    private final List<ControllerSpec<?>> controllers;
    private final Operator operator;
    private final ScheduledThreadPoolExecutor watchdog;
    private final Optional<Leadership> leadership;
    private final EventRecorder events;
    private final StartupChecks checks;

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
     * @param clientConfig where the API server is and how to log in
     * @param exitOnLostLease whether losing the leader lease ends the process (in production) or only stops this
     *     operator (in tests)
     */
    public KymaOperator(
            ManagerConfig config,
            Config clientConfig,
            Clock clock,
            List<Interceptor> extraInterceptors,
            List<ControllerSpec<?>> controllers,
            boolean exitOnLostLease) {
        this.reconcile = config.reconcile();
        this.endpoints = config.endpoints();
        this.clock = clock;
        this.controllers = List.copyOf(controllers);
        LeaderSettings leader = config.leader();
        this.checks = new StartupChecks(leader.elect() || config.shards().sharded(), config.crdCheck());
        this.leadership = leader.elect()
                ? Optional.of(new Leadership(exitOnLostLease, leader.timing(), clock))
                : Optional.empty();
        List<Interceptor> interceptors = new ArrayList<>(extraInterceptors);
        leadership.ifPresent(l -> interceptors.add(l.renewals()));
        this.client = KubernetesClients.create(clientConfig, config.client(), metrics, interceptors);
        this.events = OperatorEvents.start(client, config.client(), clock, metrics);
        QueueMetrics queueMetrics = new QueueMetrics(metrics, clock);
        MissedExecutions missedExecutions = new MissedExecutions(metrics::missedExecutions);
        queueMetrics.onMissedExecution(missedExecutions::release);
        this.sharding = new Sharding(
                client,
                config.shards(),
                Sharding.Leases.of(leader, client),
                reconcile.namespace(),
                clock,
                this::leading,
                metrics);
        // reconcile timeouts and the lease's renew deadline
        this.watchdog = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("manager-watchdog"));
        watchdog.setRemoveOnCancelPolicy(true);
        leadership.ifPresent(l -> watchdog.scheduleWithFixedDelay(l::checkRenewal, 250, 250, TimeUnit.MILLISECONDS));
        PrioritizingExecutor pool =
                new PrioritizingExecutor(reconcile.maxConcurrentReconciles(), reconcile.lowPriorityMaxWait(), clock);
        HeapReturner.start(reconcile, pool, metrics::heapCollections, clock);
        this.operator = Operators.create(
                client,
                leadership.map(l ->
                        l.configuration(config.leaseName(), leader.namespace().orElse(null))),
                reconcile.maxConcurrentReconciles(),
                GRACEFUL_STOP,
                pool,
                new AggregatedMetrics(List.of(queueMetrics, pool.submissions())),
                controllers);
        leadership.ifPresent(l -> l.onLoss(operator::stop));
        ManagerGauges.register(metrics, pool, config.leaseName(), this);
        Guards guards = new Guards(config.retry(), reconcile, clock, watchdog, metrics, missedExecutions);
        Registration registration = new Registration(
                operator,
                reconcile,
                config.retry(),
                sharding,
                guards,
                pool,
                queueMetrics,
                missedExecutions,
                metrics,
                clock,
                events);
        for (ControllerSpec<?> spec : controllers) {
            registration.register(spec);
        }
    }

    /**
     * @throws ServedApis.MissingApiException when the API server lacks an API the manager needs, before anything starts
     * @throws InstalledCrds.StaleCrdException when an installed CRD is older than this version's
     */
    public void start() {
        checks.run(client, operator);
        sharding.start(reconcile.namespace());
        operator.start();
    }

    /** Serves /metrics and the probes (the caller closes them); throws when a port or certificate is unusable. */
    public ManagerEndpoints serveEndpoints() {
        return new ManagerEndpoints(
                endpoints, metrics::scrape, this::ready, SecureMetrics.of(endpoints, client, clock));
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
        events.close();
        client.close();
    }
}
