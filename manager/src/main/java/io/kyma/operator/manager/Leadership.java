package io.kyma.operator.manager;

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
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;

/**
 * Leader election through a Lease (JOSDK's, with its 15 s lease, 10 s renew deadline and 2 s retry). A manager that
 * loses the lease stops reconciling at once: the process exits, as controller-runtime's managers do, or in tests
 * the operator is stopped. Because the lease outlives the renew deadline by 5 s, the old leader has stopped before
 * another can take over.
 */
final class Leadership {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private final String identity;
    private final boolean exitOnLoss;
    private final Clock clock;
    private final AtomicReference<Instant> leadingSince = new AtomicReference<>();
    private final AtomicReference<Instant> stoppedAt = new AtomicReference<>();
    private volatile Runnable stopReconciling = () -> {
    };

    Leadership(boolean exitOnLoss, Clock clock) {
        this.identity = hostname() + "_" + UUID.randomUUID();
        this.exitOnLoss = exitOnLoss;
        this.clock = clock;
    }

    LeaderElectionConfiguration configuration(ManagerConfig config) {
        return new LeaderElectionConfiguration(config.leaderElectionId(), config.leaderElectionNamespace().orElse(null),
                LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
                LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE, identity,
                new LeaderCallbacks(this::started, this::stopped, leader -> LOG.info("Leader is now {}", leader)),
                false);
    }

    void onLoss(Runnable stopReconciling) {
        this.stopReconciling = stopReconciling;
    }

    boolean leading() {
        return leadingSince.get() != null && stoppedAt.get() == null;
    }

    String identity() {
        return identity;
    }

    Optional<Instant> leadingSince() {
        return Optional.ofNullable(leadingSince.get());
    }

    Optional<Instant> stoppedAt() {
        return Optional.ofNullable(stoppedAt.get());
    }

    private void started() {
        leadingSince.set(clock.instant());
        LOG.info("Became the leader as {}; reconciling", identity);
    }

    private void stopped() {
        if (leadingSince.get() == null || !stoppedAt.compareAndSet(null, clock.instant())) {
            return;
        }
        if (exitOnLoss) {
            LOG.error("Lost the leader lease as {}; exiting so that only the new leader reconciles", identity);
            System.exit(1);
        }
        LOG.warn("Lost the leader lease as {}; stopping", identity);
        new Thread(stopReconciling, "leadership-lost").start();
    }

    private static String hostname() {
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
