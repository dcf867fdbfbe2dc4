package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;
import io.kyma.operator.manager.limits.RetryAfter;

/**
 * The manager's one API client: where the API server is, how many requests a second it may send, and how long one
 * call may take with the client's own retries.
 * <p>
 * One call (a write or a read) ends within {@link #callBound()}: {@code (retries + 1)} attempts of at most
 * {@code requestTimeout} each, the client's backoffs between them (100 ms doubling, at most 3.2 s) and, when the
 * client retries at all, the {@code Retry-After} waits ({@link RetryAfter#MAX_WAIT} each). The retries are the most
 * for which that bound is at most half of {@code --reconcile-timeout}, so that a write that failed and the status
 * write that tells of it both end before the reconcile is interrupted; with the defaults (15s, 1m) that is no retry
 * at all: a failed call fails its reconcile, which the requeue limiter retries with its capped backoff.
 *
 * @param qps requests per second; 0 or less turns the client limiter off
 * @param requestTimeout the longest one attempt may wait for the API server's answer
 * @param retries how often the client itself sends a call again after a 5xx or an I/O error
 */
public record ClientSettings(Optional<String> kubeconfig, double qps, int burst, Duration requestTimeout, int retries) {
    /** fabric8's first backoff between retries of one call; it doubles up to 32 times this. */
    public static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /** The most retries of one call, whatever the timeouts allow (fabric8's default). */
    static final int MAX_RETRIES = 10;

    static final Flag<Optional<String>> KUBECONFIG = Flag.of(
            "kubeconfig",
            "",
            "A kubeconfig file; empty uses `$KUBECONFIG`, `~/.kube/config` or the in-cluster service account.",
            Parsers.optional(Parsers.text()));
    static final Flag<Double> QPS = Flag.of(
            "k8s-client-qps",
            "250",
            "API requests per second of the client; `0` or less turns the client limiter off.",
            Parsers.number());
    static final Flag<Integer> BURST = Flag.of(
            "k8s-client-burst", "250", "Burst of the client limiter (1 to 1000000).", Parsers.integer(1, 1_000_000));
    /** The request timeout unless {@code --reconcile-timeout} asks for a shorter one. */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(12);

    static final Flag<Optional<Duration>> REQUEST_TIMEOUT = Flag.of(
            "k8s-request-timeout",
            "",
            "The longest one API request waits for its answer (1ms to 1h); empty is 12s, or half of"
                    + " `--reconcile-timeout` if that is shorter. 12s is longer than an admission webhook's default"
                    + " timeout (10s), so that the API server's answer naming a webhook that timed out arrives. At most"
                    + " half of `--reconcile-timeout`; the client retries a call only as often as the whole call,"
                    + " retries and their waits included, still ends within that half.",
            Parsers.optional(ClientSettings::requestTimeout));
    static final List<Flag<?>> FLAGS = List.of(KUBECONFIG, QPS, BURST, REQUEST_TIMEOUT);

    static ClientSettings from(Flags.Values values) {
        Duration half = values.get(ReconcileSettings.RECONCILE_TIMEOUT).dividedBy(2);
        Duration requestTimeout = values.get(REQUEST_TIMEOUT)
                .orElse(DEFAULT_REQUEST_TIMEOUT.compareTo(half) <= 0 ? DEFAULT_REQUEST_TIMEOUT : half);
        int retries = retriesWithin(requestTimeout, half);
        if (retries < 0 || requestTimeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw new FlagException(REQUEST_TIMEOUT.flagName() + " must be at most half of "
                    + ReconcileSettings.RECONCILE_TIMEOUT.flagName() + " and at least 1ms, got "
                    + GoDuration.format(requestTimeout) + " and "
                    + GoDuration.format(values.get(ReconcileSettings.RECONCILE_TIMEOUT))
                    + ": a write the API server does not answer, and the status write that tells of it, must both"
                    + " end before the reconcile is interrupted");
        }
        return new ClientSettings(values.get(KUBECONFIG), values.get(QPS), values.get(BURST), requestTimeout, retries);
    }

    private static Duration requestTimeout(String text) {
        Duration timeout = GoDuration.atMost(GoDuration.parse(text), Duration.ofHours(1), "a request timeout");
        if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("must be at least 1ms, got " + text); // fabric8's 0 means none
        }
        return timeout;
    }

    /** The longest one call takes, retries included. */
    public Duration callBound() {
        return callBound(requestTimeout, retries);
    }

    /** The most retries (up to {@link #MAX_RETRIES}) whose call bound is within {@code bound}; -1 if none is. */
    static int retriesWithin(Duration requestTimeout, Duration bound) {
        int retries = -1;
        while (retries < MAX_RETRIES && callBound(requestTimeout, retries + 1).compareTo(bound) <= 0) {
            retries++;
        }
        return retries;
    }

    /**
     * {@code retries + 1} attempts, each waiting at most {@code requestTimeout} for its answer, and before each retry
     * fabric8's backoff ({@link #FIRST_BACKOFF} doubling, at most 32 times it) after the {@code Retry-After} wait
     * ({@link RetryAfter}, which is installed only when the client retries, and then holds every failed answer).
     */
    static Duration callBound(Duration requestTimeout, int retries) {
        Duration bound = requestTimeout.multipliedBy(retries + 1L);
        if (retries > 0) {
            bound = bound.plus(RetryAfter.MAX_WAIT.multipliedBy(retries + 1L));
        }
        for (int i = 0; i < retries; i++) {
            bound = bound.plus(FIRST_BACKOFF.multipliedBy(1L << Math.min(i, 5)));
        }
        return bound;
    }
}
