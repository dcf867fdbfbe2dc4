package io.kyma.operator.manager.leader;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.kyma.operator.common.GoDuration;

/**
 * Leader election through a Lease (JOSDK's; by default a 15 s lease, 10 s renew deadline and 2 s retry). A manager that
 * loses the lease stops reconciling at once: the process ends without a graceful shutdown, as controller-runtime's
 * managers do, or in tests the operator is stopped. Because the lease outlives the renew deadline, the old leader has
 * stopped before another can take over.
 * <p>
 * fabric8's elector checks the renew deadline only between attempts, and one attempt can last far longer: the client
 * retries a refused or failed request in the call, with a backoff that doubles up to 10 times. Cut off from the API
 * server, a leader went on believing it led for 19 s, 4 s after another replica had taken the lease. So the deadline
 * is enforced here as well: {@link #renewals()} sees every lease write the API server accepted with this replica as
 * the holder, and {@link #checkRenewal()}, called often, steps down once the last one is older than the deadline.
 */
public final class Leadership {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);
    /** JOSDK's and controller-runtime's defaults. */
    public static final LeaseTiming DEFAULT_TIMING = new LeaseTiming(
            LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
            LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
            LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE);

    private final String identity;
    private final Runnable exit;
    private final Clock clock;
    private final LeaseTiming timing;
    private final AtomicReference<Instant> leadingSince = new AtomicReference<>();
    private final AtomicReference<Instant> stoppedAt = new AtomicReference<>();
    private final AtomicReference<Instant> renewed = new AtomicReference<>();
    private volatile Runnable stopReconciling = () -> {};

    public Leadership(boolean exitOnLoss, LeaseTiming timing, Clock clock) {
        this(exitOnLoss ? Leadership::halt : null, timing, clock);
    }

    /** @param exit ends the process when the lease is lost; null stops only the reconciling */
    Leadership(Runnable exit, LeaseTiming timing, Clock clock) {
        this.identity = hostname() + "_" + UUID.randomUUID();
        this.exit = exit;
        this.timing = timing;
        this.clock = clock;
    }

    /** An interceptor for the client that elects: it reports each accepted lease write with this holder. */
    public Interceptor renewals() {
        return new LeaseRenewals(identity, this::renewed);
    }

    /** The API server accepted the lease with this replica as holder and {@code renewTime}. */
    void renewed(Instant renewTime) {
        renewed.accumulateAndGet(renewTime, (a, b) -> a == null || b.isAfter(a) ? b : a);
    }

    /**
     * Whether this replica leads on a lease it last renewed more than the renew deadline ago: the lease may expire
     * for the others soon, and this replica must stop first.
     */
    boolean overdue(Instant now) {
        Instant last = renewed.get();
        return leading() && last != null && now.isAfter(last.plus(timing.renewDeadline()));
    }

    /** Steps down when {@link #overdue}; cheap, for a scheduler to call every few hundred milliseconds. */
    public void checkRenewal() {
        if (overdue(clock.instant())) {
            LOG.error(
                    "The leader lease was last renewed at {}, more than the {} renew deadline ago",
                    renewed.get(),
                    GoDuration.format(timing.renewDeadline()));
            stopped();
        }
    }

    /** @param namespace the Lease's namespace; null for the one the operator runs in */
    public LeaderElectionConfiguration configuration(String leaseName, String namespace) {
        return new LeaderElectionConfiguration(
                leaseName,
                namespace,
                timing.duration(),
                timing.renewDeadline(),
                timing.retryPeriod(),
                identity,
                new LeaderCallbacks(this::started, this::stopped, leader -> LOG.info("Leader is now {}", leader)),
                false);
    }

    public void onLoss(Runnable stopReconciling) {
        this.stopReconciling = stopReconciling;
    }

    public boolean leading() {
        return leadingSince.get() != null && stoppedAt.get() == null;
    }

    String identity() {
        return identity;
    }

    public Optional<Instant> leadingSince() {
        return Optional.ofNullable(leadingSince.get());
    }

    public Optional<Instant> stoppedAt() {
        return Optional.ofNullable(stoppedAt.get());
    }

    void started() {
        Instant now = clock.instant();
        renewed.compareAndSet(null, now); // the acquiring write may be reported a moment later
        leadingSince.set(now);
        LOG.info("Became the leader as {}; reconciling", identity);
    }

    void stopped() {
        if (leadingSince.get() == null || !stoppedAt.compareAndSet(null, clock.instant())) {
            return;
        }
        if (exit != null) {
            LOG.error("Lost the leader lease as {}; exiting at once so that only the new leader reconciles", identity);
            exit.run();
            return;
        }
        LOG.warn("Lost the leader lease as {}; stopping", identity);
        new Thread(stopReconciling, "leadership-lost").start();
    }

    /**
     * Ends the process without shutdown hooks: a graceful stop would let in-flight reconciles write on for up to 30 s
     * after another replica may have become the leader (controller-runtime skips it too when the lease is lost).
     */
    private static void halt() {
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    /** This process's host name: the pod's name in a cluster. */
    public static String hostname() {
        String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "kyma-operator";
        }
    }
}
