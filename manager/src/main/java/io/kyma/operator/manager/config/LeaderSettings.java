package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.manager.leader.LeaseTiming;
import io.kyma.operator.manager.shard.Shards;

/**
 * Leader election: whether replicas elect one that reconciles, and the Lease they do it through.
 *
 * @param namespace the Lease's namespace; empty uses the operator's own
 * @param id the Lease's name, unsharded
 */
public record LeaderSettings(boolean elect, Optional<String> namespace, String id, LeaseTiming timing) {
    static final Flag<Boolean> ELECT = Flag.ofSwitch(
            "leader-elect",
            "false",
            "Elect a leader through a Lease, so that of several replicas only one reconciles; alone,"
                    + " `--leader-elect` means `true`.");
    static final Flag<Optional<String>> NAMESPACE = Flag.of(
            "leader-election-namespace",
            "",
            "Namespace of the Lease; empty uses the namespace the operator runs in.",
            ValueParsers.optionalNamespace());
    static final Flag<Duration> LEASE_DURATION = Flag.of(
            "leader-election-lease-duration",
            "15s",
            "How long a Lease that is not renewed keeps other replicas from taking over: whole seconds, longer than"
                    + " the renew deadline.",
            GoDuration::parsePositive);
    static final Flag<Duration> RENEW_DEADLINE = Flag.of(
            "leader-election-renew-deadline",
            "10s",
            "A leader that has not renewed its Lease for this long stops reconciling and exits; longer than 1.2"
                    + " times the retry period.",
            GoDuration::parsePositive);
    static final Flag<Duration> RETRY_PERIOD = Flag.of(
            "leader-election-retry-period",
            "2s",
            "How often a replica tries to take or renew the Lease.",
            GoDuration::parsePositive);
    static final Flag<String> ID = Flag.of(
            "leader-election-id",
            "kyma-operator-leader",
            "Name of the Lease (at most 244 characters); unless it is given, with `--namespace` set it is"
                    + " `kyma-operator-leader-<namespace>`, so that installations for different namespaces do not"
                    + " share one (an installation upgraded from a release before this rule that sets `--namespace`"
                    + " and `--leader-elect` gives `kyma-operator-leader` explicitly, or its old and new pods lead at"
                    + " once during the rollout).",
            ValueParsers::objectName);
    static final List<Flag<?>> FLAGS = List.of(ELECT, NAMESPACE, LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD, ID);

    /** @param watched the one namespace the operator watches, if it watches one */
    static LeaderSettings from(Flags.Values values, Optional<String> watched) {
        return new LeaderSettings(values.get(ELECT), values.get(NAMESPACE), id(values, watched), timing(values));
    }

    /** The leader-election Lease: one per shard when sharded, so that each shard has its own leader. */
    public String leaseName(Shards shards) {
        return shards.sharded() ? id + "-shard-" + shards.id() : id;
    }

    /**
     * As client-go requires: the lease outlives the renew deadline, which outlives 1.2 retries (a retry's jitter). The
     * Lease stores its duration in whole seconds, which is what other replicas wait for, so it is given in those.
     */
    private static LeaseTiming timing(Flags.Values values) {
        Duration duration = values.get(LEASE_DURATION);
        Duration renewDeadline = values.get(RENEW_DEADLINE);
        Duration retryPeriod = values.get(RETRY_PERIOD);
        if (duration.toNanos() % 1_000_000_000L != 0) {
            throw new FlagException(LEASE_DURATION.flagName()
                    + " must be whole seconds (the Lease stores seconds), got " + values.text(LEASE_DURATION));
        }
        if (duration.compareTo(renewDeadline) <= 0) {
            throw new FlagException(LEASE_DURATION.flagName() + " must be longer than " + RENEW_DEADLINE.flagName()
                    + ", got " + values.text(LEASE_DURATION) + " and " + values.text(RENEW_DEADLINE));
        }
        if (renewDeadline.toNanos() <= retryPeriod.toNanos() / 5 * 6) {
            throw new FlagException(RENEW_DEADLINE.flagName() + " must be longer than 1.2 times "
                    + RETRY_PERIOD.flagName() + ", got " + values.text(RENEW_DEADLINE) + " and "
                    + values.text(RETRY_PERIOD));
        }
        return new LeaseTiming(duration, renewDeadline, retryPeriod);
    }

    /**
     * The Lease's name. Unless one is given, it is one per watched namespace: two installations that watch two
     * namespaces must not share a Lease, or one of them would never reconcile.
     */
    private static String id(Flags.Values values, Optional<String> watched) {
        String id = values.get(ID);
        if (!values.given(ID) && watched.isPresent()) {
            id = id + "-" + watched.get();
        }
        int longest = 253 - ("-shard-" + (Shards.MAX - 1)).length();
        if (id.length() > longest) {
            throw new FlagException(ID.flagName() + " may have at most " + longest
                    + " characters (a shard's Lease adds -shard-N), got " + id.length());
        }
        return id;
    }
}
