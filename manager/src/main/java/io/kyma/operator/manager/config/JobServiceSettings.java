package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;
import io.kyma.operator.run.JobServerUrl;
import io.kyma.operator.run.RunSettings;
import io.kyma.operator.run.ServerAllowList;

/**
 * The Run controller's settings: how it reaches job services, how much of them it reads and how often it writes.
 *
 * @param defaultServer the job service of Runs without {@code spec.server}
 * @param responseLimit the largest answer read, in bytes
 */
public record JobServiceSettings(
        Optional<JobServerUrl> defaultServer,
        Duration pollInterval,
        Duration cleanupTimeout,
        Duration connectTimeout,
        Duration requestTimeout,
        long responseLimit,
        int maxInFlight,
        int maxInFlightPerServer,
        Duration statusInterval,
        ServerAllowList serverAllow) {
    static final Flag<Optional<JobServerUrl>> SERVER_URL = Flag.of(
            "remote-server-url",
            "",
            "Job service (`http` or `https` URL) for Runs without `spec.server`.",
            Parsers.optional(JobServerUrl::parse));
    static final Flag<Duration> POLL_INTERVAL = Flag.of(
            "run-poll-interval",
            "5s",
            "How often a running Run polls its job, unless `spec.pollInterval` says otherwise (at least 100 ms; a"
                    + " shorter interval polls every 100 ms).",
            GoDuration::parsePositive);
    static final Flag<Duration> CLEANUP_TIMEOUT = Flag.of(
            "run-cleanup-timeout",
            "5m",
            "How long deleting a Run keeps trying to cancel its job on an unreachable server.",
            GoDuration::parsePositive);
    static final Flag<Duration> CONNECT_TIMEOUT = Flag.of(
            "remote-connect-timeout",
            "2s",
            "A job service that does not accept a connection within this time counts as unreachable.",
            GoDuration::parsePositive);
    static final Flag<Duration> REQUEST_TIMEOUT = Flag.of(
            "remote-request-timeout",
            "10s",
            "Longest time of one job service request, from connecting to the last byte of the answer.",
            GoDuration::parsePositive);
    static final Flag<Long> RESPONSE_LIMIT = Flag.of(
            "remote-response-limit",
            "256Ki",
            "Largest job service answer read (bytes, or with a `Ki`, `Mi` or `Gi` suffix; 64Ki to 1Gi); a larger one"
                    + " fails the Run.",
            ValueParsers::byteSize);
    static final Flag<Integer> MAX_IN_FLIGHT = Flag.of(
            "remote-max-in-flight",
            "32",
            "Most job service calls in flight at once (1 to 1024); fewer when that many answers (three times their"
                    + " limit and 64 KiB of headers each) would not fit an eighth of the heap.",
            Parsers.integer(1, 1024));
    static final Flag<Integer> MAX_IN_FLIGHT_PER_SERVER = Flag.of(
            "remote-max-in-flight-per-server",
            "4",
            "Most job service calls in flight at once to one server (scheme, host and port; 1 to 1024).",
            Parsers.integer(1, 1024));
    static final Flag<Duration> STATUS_INTERVAL = Flag.of(
            "run-status-interval",
            "5s",
            "Least time between two status writes of a running Run that only report its job's state text or log,"
                    + " and between two writes of a change of whether its server answers; phase and other condition"
                    + " changes are written at once.",
            GoDuration::parsePositive);
    static final Flag<ServerAllowList> SERVER_ALLOW = Flag.of(
            "remote-server-allow",
            "",
            "Where `spec.server` may point: comma-separated host names, `*.domain` wildcards, IP addresses and CIDR"
                    + " ranges; empty allows all but loopback, link-local (cloud metadata), the operator's and the API"
                    + " server's addresses, which only an address or range listed here allows.",
            ServerAllowList::parse);
    static final List<Flag<?>> FLAGS = List.of(
            SERVER_URL,
            POLL_INTERVAL,
            CLEANUP_TIMEOUT,
            CONNECT_TIMEOUT,
            REQUEST_TIMEOUT,
            RESPONSE_LIMIT,
            MAX_IN_FLIGHT,
            MAX_IN_FLIGHT_PER_SERVER,
            STATUS_INTERVAL,
            SERVER_ALLOW);

    static JobServiceSettings from(Flags.Values values) {
        return new JobServiceSettings(
                values.get(SERVER_URL),
                values.get(POLL_INTERVAL),
                values.get(CLEANUP_TIMEOUT),
                values.get(CONNECT_TIMEOUT),
                values.get(REQUEST_TIMEOUT),
                values.get(RESPONSE_LIMIT),
                values.get(MAX_IN_FLIGHT),
                values.get(MAX_IN_FLIGHT_PER_SERVER),
                values.get(STATUS_INTERVAL),
                values.get(SERVER_ALLOW));
    }

    /** What the Run reconciler itself reads. */
    public RunSettings runSettings() {
        return new RunSettings(defaultServer, pollInterval, cleanupTimeout, serverAllow, statusInterval);
    }
}
