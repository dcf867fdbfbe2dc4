package io.kyma.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.manager.leader.LeaseTiming;
import io.kyma.operator.manager.shard.Shards;
import io.kyma.operator.run.JobServerUrl;
import io.kyma.operator.run.ServerAllowList;

/**
 * The manager's configuration, read in one place: command-line flags, then environment variables
 * ({@code KYMA_OPERATOR_} plus the flag in upper snake case), then defaults.
 */
public record ManagerConfig(
        Optional<String> kubeconfig,
        Optional<String> namespace,
        Duration transitionUnit,
        Duration kymaStatusInterval,
        int maxConcurrentReconciles,
        int admissionBacklog,
        Duration lowPriorityMaxWait,
        String logLevel,
        Duration failureBaseDelay,
        Duration failureMaxDelay,
        double rateLimiterFrequency,
        int rateLimiterBurst,
        double maxReconcileRate,
        double k8sClientQps,
        int k8sClientBurst,
        Duration syncPeriod,
        long informerListLimit,
        int temporaryCacheMax,
        Duration reconcileTimeout,
        Optional<BindAddress> metricsBindAddress,
        Optional<BindAddress> healthProbeBindAddress,
        Optional<JobServerUrl> remoteServerUrl,
        Duration runPollInterval,
        Duration runCleanupTimeout,
        Duration remoteConnectTimeout,
        Duration remoteRequestTimeout,
        long remoteResponseLimit,
        int remoteMaxInFlight,
        int remoteMaxInFlightPerServer,
        Duration runStatusInterval,
        ServerAllowList remoteServerAllow,
        boolean leaderElect,
        Optional<String> leaderElectionNamespace,
        String leaderElectionId,
        LeaseTiming leaseTiming,
        Shards shards) {

    public static final String ENV_PREFIX = "KYMA_OPERATOR_";

    /** Every flag, its default and its meaning; the order is the order of {@code --help}. */
    public enum Flag {
        KUBECONFIG(
                "kubeconfig",
                "",
                "Path of a kubeconfig file; empty uses $KUBECONFIG, ~/.kube/config or the in-cluster account."),
        NAMESPACE("namespace", "", "Namespace to watch; empty watches all namespaces."),
        TRANSITION_UNIT(
                "transition-unit",
                "1s",
                "Time unit of the HelmComponent lifecycle (pending 1 unit, then N units per state, N = length of the module name)."),
        KYMA_STATUS_INTERVAL(
                "kyma-status-interval",
                "5s",
                "Least time between two Kyma status writes that only update component counts, and how long component changes that only move counts are gathered before the Kyma reconciles."),
        MAX_CONCURRENT_RECONCILES(
                "max-concurrent-reconciles", "50", "Size of the reconcile thread pool shared by all controllers."),
        ADMISSION_BACKLOG(
                "admission-backlog",
                "0",
                "HelmComponent reconciles that may be waiting for a worker while the next Kyma in line (oldest first) is admitted and gets its components; 0 uses twice --max-concurrent-reconciles, -1 admits every Kyma at once."),
        LOW_PRIORITY_MAX_WAIT(
                "low-priority-max-wait",
                "30s",
                "Reconciles with nothing due (a finished component or Run, a Ready Kyma, a Kyma waiting in line) wait behind due ones; once the oldest has waited this long, the two take turns."),
        LOG_LEVEL("log-level", "info", "Log level: error, warn, info, debug or trace."),
        FAILURE_BASE_DELAY(
                "failure-base-delay",
                "1s",
                "First retry delay after a failed reconcile; it doubles with each further failure."),
        FAILURE_MAX_DELAY("failure-max-delay", "1000s", "Longest retry delay after failed reconciles."),
        RATE_LIMITER_FREQUENCY(
                "rate-limiter-frequency",
                "30",
                "Retries of failed reconciles per second, shared by all controllers (token bucket rate)."),
        RATE_LIMITER_BURST("rate-limiter-burst", "200", "Burst of the shared retry token bucket."),
        MAX_RECONCILE_RATE(
                "max-reconcile-rate",
                "0",
                "Reconciles per second across all controllers; 0 turns the global gate off."),
        K8S_CLIENT_QPS(
                "k8s-client-qps",
                "150",
                "API requests per second of the manager's client; 0 or less turns the client limiter off."),
        K8S_CLIENT_BURST("k8s-client-burst", "150", "Burst of the client's request token bucket."),
        SYNC_PERIOD("sync-period", "10h", "Every resource is reconciled at least this often, without any event."),
        INFORMER_LIST_LIMIT(
                "informer-list-limit",
                "500",
                "Objects per page when an informer lists its resources (at start and after a lost watch); 0 lists all in one response."),
        TEMPORARY_CACHE_MAX(
                "temporary-cache-max",
                "5000",
                "Most write answers each controller keeps until its watch delivers them (read after write); beyond it a write that races its own watch event is retried on a 409."),
        RECONCILE_TIMEOUT(
                "reconcile-timeout",
                "1m",
                "A reconcile running longer is interrupted, counted as failed and retried with backoff."),
        METRICS_BIND_ADDRESS(
                "metrics-bind-address",
                ":8080",
                "Address of the Prometheus /metrics endpoint ([host]:port); 0 turns it off."),
        HEALTH_PROBE_BIND_ADDRESS(
                "health-probe-bind-address", ":8081", "Address of /healthz and /readyz ([host]:port); 0 turns it off."),
        REMOTE_SERVER_URL("remote-server-url", "", "Job service (http or https URL) for Runs without spec.server."),
        RUN_POLL_INTERVAL(
                "run-poll-interval",
                "5s",
                "How often a running Run polls its job, unless spec.pollInterval says otherwise."),
        RUN_CLEANUP_TIMEOUT(
                "run-cleanup-timeout",
                "5m",
                "How long deleting a Run keeps trying to cancel its job on an unreachable server."),
        REMOTE_CONNECT_TIMEOUT(
                "remote-connect-timeout",
                "2s",
                "A job service that does not accept a connection within this time counts as unreachable."),
        REMOTE_REQUEST_TIMEOUT(
                "remote-request-timeout",
                "10s",
                "Longest time of one job service request, from connecting to the last byte of the answer."),
        REMOTE_RESPONSE_LIMIT(
                "remote-response-limit",
                "256Ki",
                "Largest job service answer read (bytes, or with Ki/Mi suffix; 64Ki to 1Gi); a larger one fails the Run."),
        REMOTE_MAX_IN_FLIGHT(
                "remote-max-in-flight",
                "32",
                "Most job service calls in flight at once (1 to 1024), fewer when that many answers of --remote-response-limit would not fit an eighth of the heap."),
        REMOTE_MAX_IN_FLIGHT_PER_SERVER(
                "remote-max-in-flight-per-server",
                "4",
                "Most job service calls in flight at once to one server (scheme, host and port; 1 to 1024)."),
        RUN_STATUS_INTERVAL(
                "run-status-interval",
                "5s",
                "Least time between two status writes of a running Run that only report its job's state text or log, and between two writes of a change of whether its server answers; phase and other condition changes are written at once."),
        REMOTE_SERVER_ALLOW(
                "remote-server-allow",
                "",
                "Where spec.server may point: comma-separated host names, *.domain wildcards, IP addresses and CIDR ranges; empty allows all but loopback, link-local, the operator's and the API server's addresses, which only an address or range listed here allows."),
        LEADER_ELECT(
                "leader-elect",
                "false",
                "Elect a leader through a Lease, so that of several replicas only one reconciles."),
        LEADER_ELECTION_NAMESPACE(
                "leader-election-namespace",
                "",
                "Namespace of the leader-election Lease; empty uses the namespace the operator runs in."),
        LEADER_ELECTION_LEASE_DURATION(
                "leader-election-lease-duration",
                "15s",
                "How long a Lease not renewed keeps others from taking over; more than the renew deadline."),
        LEADER_ELECTION_RENEW_DEADLINE(
                "leader-election-renew-deadline",
                "10s",
                "A leader that has not renewed its Lease for this long stops reconciling and exits; more than 1.2 times the retry period."),
        LEADER_ELECTION_RETRY_PERIOD(
                "leader-election-retry-period", "2s", "How often a replica tries to take or renew the Lease."),
        LEADER_ELECTION_ID(
                "leader-election-id",
                "kyma-operator-leader",
                "Name of the leader-election Lease; unless given, with --namespace set it is kyma-operator-leader-<namespace>."),
        SHARDS(
                "shards",
                "1",
                "Number of operator replicas that split the Kymas, HelmComponents and Runs between them by the label kyma-project.io/shard (1 to 64); 1 runs unsharded."),
        SHARD_ID(
                "shard-id",
                "0",
                "This replica's shard, from 0 to --shards minus 1; a name ending in -N (a StatefulSet pod's name) means N.");

        final String name;
        final String defaultValue;
        final String description;

        Flag(String name, String defaultValue, String description) {
            this.name = name;
            this.defaultValue = defaultValue;
            this.description = description;
        }

        public String flagName() {
            return "--" + name;
        }

        public String envName() {
            return ENV_PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_');
        }
    }

    /** Thrown for {@code --help}. */
    public static final class HelpRequested extends RuntimeException {
        HelpRequested() {
            super("help");
        }
    }

    public static ManagerConfig parse(String[] args, Map<String, String> env) {
        Map<Flag, String> raw = new LinkedHashMap<>();
        for (Flag flag : Flag.values()) {
            raw.put(flag, env.getOrDefault(flag.envName(), flag.defaultValue));
        }
        // whether a Lease name was given, even the default's: then it is kept as given
        boolean leaseNamed = env.containsKey(Flag.LEADER_ELECTION_ID.envName());
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                throw new HelpRequested();
            }
            if (!arg.startsWith("--")) {
                throw new ConfigException("unexpected argument '" + arg + "'; see --help");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            Flag flag = find(name).orElseThrow(() -> new ConfigException("unknown flag --" + name + "; see --help"));
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag == Flag.LEADER_ELECT && (i + 1 >= args.length || args[i + 1].startsWith("--"))) {
                value = "true"; // a switch: --leader-elect alone turns it on
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new ConfigException(flag.flagName() + " needs a value");
            }
            raw.put(flag, value);
            leaseNamed |= flag == Flag.LEADER_ELECTION_ID;
        }
        return new ManagerConfig(
                optional(raw.get(Flag.KUBECONFIG)),
                optional(raw.get(Flag.NAMESPACE)).map(value -> convert(Flag.NAMESPACE, raw, ManagerConfig::dnsLabel)),
                positiveDuration(Flag.TRANSITION_UNIT, raw),
                positiveDuration(Flag.KYMA_STATUS_INTERVAL, raw),
                intBetween(Flag.MAX_CONCURRENT_RECONCILES, raw, 1, 1024),
                intBetween(Flag.ADMISSION_BACKLOG, raw, -1, 1_000_000),
                positiveDuration(Flag.LOW_PRIORITY_MAX_WAIT, raw),
                oneOf(Flag.LOG_LEVEL, raw, List.of("error", "warn", "info", "debug", "trace")),
                positiveDuration(Flag.FAILURE_BASE_DELAY, raw),
                atLeast(Flag.FAILURE_MAX_DELAY, raw, Flag.FAILURE_BASE_DELAY),
                positiveNumber(Flag.RATE_LIMITER_FREQUENCY, raw),
                intBetween(Flag.RATE_LIMITER_BURST, raw, 1, 1_000_000),
                numberAtLeastZero(Flag.MAX_RECONCILE_RATE, raw),
                convert(Flag.K8S_CLIENT_QPS, raw, ManagerConfig::number),
                intBetween(Flag.K8S_CLIENT_BURST, raw, 1, 1_000_000),
                positiveDuration(Flag.SYNC_PERIOD, raw),
                intBetween(Flag.INFORMER_LIST_LIMIT, raw, 0, 100_000),
                intBetween(Flag.TEMPORARY_CACHE_MAX, raw, 0, 1_000_000),
                positiveDuration(Flag.RECONCILE_TIMEOUT, raw),
                convert(Flag.METRICS_BIND_ADDRESS, raw, BindAddress::parse),
                convert(Flag.HEALTH_PROBE_BIND_ADDRESS, raw, BindAddress::parse),
                convert(Flag.REMOTE_SERVER_URL, raw, ManagerConfig::httpUrl),
                positiveDuration(Flag.RUN_POLL_INTERVAL, raw),
                positiveDuration(Flag.RUN_CLEANUP_TIMEOUT, raw),
                positiveDuration(Flag.REMOTE_CONNECT_TIMEOUT, raw),
                positiveDuration(Flag.REMOTE_REQUEST_TIMEOUT, raw),
                convert(Flag.REMOTE_RESPONSE_LIMIT, raw, ManagerConfig::byteSize),
                intBetween(Flag.REMOTE_MAX_IN_FLIGHT, raw, 1, 1024),
                intBetween(Flag.REMOTE_MAX_IN_FLIGHT_PER_SERVER, raw, 1, 1024),
                positiveDuration(Flag.RUN_STATUS_INTERVAL, raw),
                convert(Flag.REMOTE_SERVER_ALLOW, raw, ServerAllowList::parse),
                bool(Flag.LEADER_ELECT, raw),
                optional(raw.get(Flag.LEADER_ELECTION_NAMESPACE))
                        .map(value -> convert(Flag.LEADER_ELECTION_NAMESPACE, raw, ManagerConfig::dnsLabel)),
                leaderElectionId(raw, leaseNamed),
                leaseTiming(raw),
                shards(raw));
    }

    /**
     * How many HelmComponent reconciles may be waiting for a worker while Kymas are still admitted, or -1 when every
     * Kyma is admitted at once.
     */
    public int effectiveAdmissionBacklog() {
        return admissionBacklog == 0 ? 2 * maxConcurrentReconciles : admissionBacklog;
    }

    /**
     * As client-go requires: the lease outlives the renew deadline, which outlives 1.2 retries (a retry's jitter). The
     * Lease stores its duration in whole seconds, which is what other replicas wait for, so it is given in those.
     */
    private static LeaseTiming leaseTiming(Map<Flag, String> raw) {
        Duration duration = positiveDuration(Flag.LEADER_ELECTION_LEASE_DURATION, raw);
        if (duration.toNanos() % 1_000_000_000L != 0) {
            throw new ConfigException(Flag.LEADER_ELECTION_LEASE_DURATION.flagName()
                    + " must be whole seconds (the Lease stores seconds), got "
                    + raw.get(Flag.LEADER_ELECTION_LEASE_DURATION));
        }
        Duration renewDeadline = positiveDuration(Flag.LEADER_ELECTION_RENEW_DEADLINE, raw);
        Duration retryPeriod = positiveDuration(Flag.LEADER_ELECTION_RETRY_PERIOD, raw);
        if (duration.compareTo(renewDeadline) <= 0) {
            throw new ConfigException(Flag.LEADER_ELECTION_LEASE_DURATION.flagName() + " must be longer than "
                    + Flag.LEADER_ELECTION_RENEW_DEADLINE.flagName() + ", got "
                    + raw.get(Flag.LEADER_ELECTION_LEASE_DURATION) + " and "
                    + raw.get(Flag.LEADER_ELECTION_RENEW_DEADLINE));
        }
        if (renewDeadline.toNanos() <= retryPeriod.toNanos() / 5 * 6) {
            throw new ConfigException(Flag.LEADER_ELECTION_RENEW_DEADLINE.flagName() + " must be longer than 1.2 times "
                    + Flag.LEADER_ELECTION_RETRY_PERIOD.flagName() + ", got "
                    + raw.get(Flag.LEADER_ELECTION_RENEW_DEADLINE) + " and "
                    + raw.get(Flag.LEADER_ELECTION_RETRY_PERIOD));
        }
        return new LeaseTiming(duration, renewDeadline, retryPeriod);
    }

    /**
     * The Lease's name. Unless one is given, it is one per watched namespace: two installations that watch two
     * namespaces must not share a Lease, or one of them would never reconcile.
     *
     * @param named whether the flag or its variable was given (even with the default's value)
     */
    private static String leaderElectionId(Map<Flag, String> raw, boolean named) {
        String id = convert(Flag.LEADER_ELECTION_ID, raw, ManagerConfig::dnsName);
        String namespace = raw.get(Flag.NAMESPACE).trim();
        if (!named && !namespace.isEmpty()) {
            id = id + "-" + namespace;
        }
        int longest = 253 - ("-shard-" + (Shards.MAX - 1)).length();
        if (id.length() > longest) {
            throw new ConfigException(Flag.LEADER_ELECTION_ID.flagName() + " may have at most " + longest
                    + " characters (a shard's Lease adds -shard-N), got " + id.length());
        }
        return id;
    }

    private static Shards shards(Map<Flag, String> raw) {
        int count = intBetween(Flag.SHARDS, raw, 1, Shards.MAX);
        int id = convert(Flag.SHARD_ID, raw, ManagerConfig::shardNumber);
        if (id >= count) {
            throw new ConfigException(Flag.SHARD_ID.flagName() + " must be below --shards (" + count + "), got " + id);
        }
        return new Shards(count, id);
    }

    /** A shard number, or a StatefulSet pod's name whose ordinal is the number. */
    private static int shardNumber(String text) {
        // a StatefulSet pod's name is a DNS label; a bare "-1" is a negative number, not a name
        var m = Pattern.compile("(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?-)?([0-9]{1,6})")
                .matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is neither a number from 0 nor a pod name ending in -N");
        }
        return Integer.parseInt(m.group(1));
    }

    /** The leader-election Lease: one per shard when sharded, so that each shard has its own leader. */
    public String leaseName() {
        return shards.sharded() ? leaderElectionId + "-shard-" + shards.id() : leaderElectionId;
    }

    /** The text of {@code --help}. */
    public static String usage() {
        StringBuilder out = new StringBuilder("Usage: java -jar kyma-operator.jar [flags]\n\n"
                + "Runs the Kyma, HelmComponent and Run controllers. Every flag can also be set by an environment\n"
                + "variable: " + ENV_PREFIX + "<FLAG IN UPPER SNAKE CASE>; a flag wins over its variable.\n\nFlags:\n");
        for (Flag flag : Flag.values()) {
            out.append(String.format(
                    "  %-36s %s%n  %-36s (env %s, default \"%s\")%n",
                    flag.flagName() + " value", flag.description, "", flag.envName(), flag.defaultValue));
        }
        return out.toString();
    }

    /** The effective configuration, one {@code flag=value} pair each, for the start-up log. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add("kubeconfig=" + kubeconfig.orElse("<default>"));
        parts.add("namespace=" + namespace.orElse("<all>"));
        parts.add("transition-unit=" + GoDuration.format(transitionUnit));
        parts.add("kyma-status-interval=" + GoDuration.format(kymaStatusInterval));
        parts.add("max-concurrent-reconciles=" + maxConcurrentReconciles);
        parts.add("admission-backlog=" + admissionBacklog);
        parts.add("low-priority-max-wait=" + GoDuration.format(lowPriorityMaxWait));
        parts.add("log-level=" + logLevel);
        parts.add("failure-base-delay=" + GoDuration.format(failureBaseDelay));
        parts.add("failure-max-delay=" + GoDuration.format(failureMaxDelay));
        parts.add("rate-limiter-frequency=" + plain(rateLimiterFrequency));
        parts.add("rate-limiter-burst=" + rateLimiterBurst);
        parts.add("max-reconcile-rate=" + plain(maxReconcileRate));
        parts.add("k8s-client-qps=" + plain(k8sClientQps));
        parts.add("k8s-client-burst=" + k8sClientBurst);
        parts.add("sync-period=" + GoDuration.format(syncPeriod));
        parts.add("informer-list-limit=" + informerListLimit);
        parts.add("temporary-cache-max=" + temporaryCacheMax);
        parts.add("reconcile-timeout=" + GoDuration.format(reconcileTimeout));
        parts.add("metrics-bind-address="
                + metricsBindAddress.map(BindAddress::toString).orElse("0"));
        parts.add("health-probe-bind-address="
                + healthProbeBindAddress.map(BindAddress::toString).orElse("0"));
        parts.add("remote-server-url="
                + remoteServerUrl.map(JobServerUrl::toString).orElse("<none>"));
        parts.add("run-poll-interval=" + GoDuration.format(runPollInterval));
        parts.add("run-cleanup-timeout=" + GoDuration.format(runCleanupTimeout));
        parts.add("remote-connect-timeout=" + GoDuration.format(remoteConnectTimeout));
        parts.add("remote-request-timeout=" + GoDuration.format(remoteRequestTimeout));
        parts.add("remote-response-limit=" + remoteResponseLimit);
        parts.add("remote-max-in-flight=" + remoteMaxInFlight);
        parts.add("remote-max-in-flight-per-server=" + remoteMaxInFlightPerServer);
        parts.add("run-status-interval=" + GoDuration.format(runStatusInterval));
        parts.add("remote-server-allow=" + (remoteServerAllow.allowsAll() ? "<all>" : remoteServerAllow));
        parts.add("leader-elect=" + leaderElect);
        parts.add("leader-election-namespace=" + leaderElectionNamespace.orElse("<own>"));
        parts.add("leader-election-lease-duration=" + GoDuration.format(leaseTiming.duration()));
        parts.add("leader-election-renew-deadline=" + GoDuration.format(leaseTiming.renewDeadline()));
        parts.add("leader-election-retry-period=" + GoDuration.format(leaseTiming.retryPeriod()));
        parts.add("leader-election-id=" + leaderElectionId);
        parts.add("shards=" + shards.count());
        parts.add("shard-id=" + shards.id());
        return String.join(" ", parts);
    }

    /** A listen address such as {@code :8080} or {@code 127.0.0.1:8080}; port 0 picks a free port. */
    public record BindAddress(String host, int port) {
        /** Parses an address; {@code 0} means off. */
        static Optional<BindAddress> parse(String text) {
            if (text.equals("0")) {
                return Optional.empty();
            }
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + text + "' is not [host]:port or 0");
            }
            int port = Integer.parseInt(text.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is out of range");
            }
            String host = text.substring(0, colon);
            return Optional.of(new BindAddress(host.isEmpty() ? "0.0.0.0" : host, port));
        }

        @Override
        public String toString() {
            return (host.equals("0.0.0.0") ? "" : host) + ":" + port;
        }
    }

    private static boolean bool(Flag flag, Map<Flag, String> raw) {
        String value = raw.get(flag).trim().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new ConfigException(flag.flagName() + " must be true or false, got '" + raw.get(flag) + "'");
        }
        return Boolean.parseBoolean(value);
    }

    private static String dnsName(String text) {
        if (!text.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            throw new IllegalArgumentException("'" + text + "' is not a valid object name");
        }
        return text;
    }

    private static Optional<JobServerUrl> httpUrl(String text) {
        return text.isEmpty() ? Optional.empty() : Optional.of(JobServerUrl.parse(text));
    }

    private static String dnsLabel(String text) {
        if (!text.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("'" + text + "' is not a namespace name (a DNS-1123 label)");
        }
        return text;
    }

    /** Bytes: a whole number, optionally with a Ki, Mi or Gi suffix, from 64Ki to 1Gi. */
    private static long byteSize(String text) {
        var m = Pattern.compile("([0-9]{1,10})(Ki|Mi|Gi)?").matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size such as 4Mi, 512Ki or 1048576");
        }
        long value = Long.parseLong(m.group(1))
                << (m.group(2) == null
                        ? 0
                        : switch (m.group(2)) {
                            case "Ki" -> 10;
                            case "Mi" -> 20;
                            default -> 30;
                        });
        if (value < 64 << 10 || value > 1 << 30) {
            throw new IllegalArgumentException("must be from 64Ki to 1Gi, got " + text);
        }
        return value;
    }

    private static double number(String text) {
        double value = Double.parseDouble(text);
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new NumberFormatException(text);
        }
        return value;
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static double numberAtLeastZero(Flag flag, Map<Flag, String> raw) {
        double value = convert(flag, raw, ManagerConfig::number);
        if (value < 0) {
            throw new ConfigException(flag.flagName() + " must be 0 or more, got '" + raw.get(flag) + "'");
        }
        return value;
    }

    private static double positiveNumber(Flag flag, Map<Flag, String> raw) {
        double value = convert(flag, raw, ManagerConfig::number);
        if (value <= 0) {
            throw new ConfigException(flag.flagName() + " must be greater than 0, got '" + raw.get(flag) + "'");
        }
        return value;
    }

    private static Optional<Flag> find(String name) {
        for (Flag flag : Flag.values()) {
            if (flag.name.equals(name)) {
                return Optional.of(flag);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> optional(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    private static Duration positiveDuration(Flag flag, Map<Flag, String> raw) {
        Duration value = convert(flag, raw, GoDuration::parse);
        if (value.isZero()) {
            throw new ConfigException(flag.flagName() + " must be greater than 0, got '" + raw.get(flag) + "'");
        }
        return value;
    }

    /** A positive duration no shorter than {@code lower}'s value. */
    private static Duration atLeast(Flag flag, Map<Flag, String> raw, Flag lower) {
        Duration value = positiveDuration(flag, raw);
        if (value.compareTo(positiveDuration(lower, raw)) < 0) {
            throw new ConfigException(flag.flagName() + " must not be shorter than " + lower.flagName() + ", got '"
                    + raw.get(flag) + "' and '" + raw.get(lower) + "'");
        }
        return value;
    }

    private static int intAtLeast(Flag flag, Map<Flag, String> raw, int min) {
        int value = convert(flag, raw, Integer::parseInt);
        if (value < min) {
            throw new ConfigException(flag.flagName() + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    private static int intBetween(Flag flag, Map<Flag, String> raw, int min, int max) {
        int value = intAtLeast(flag, raw, min);
        if (value > max) {
            throw new ConfigException(flag.flagName() + " must be at most " + max + ", got " + value);
        }
        return value;
    }

    private static String oneOf(Flag flag, Map<Flag, String> raw, List<String> allowed) {
        String value = raw.get(flag).trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(value)) {
            throw new ConfigException(flag.flagName() + " must be one of " + String.join(", ", allowed) + ", got '"
                    + raw.get(flag) + "'");
        }
        return value;
    }

    private static <T> T convert(Flag flag, Map<Flag, String> raw, Function<String, T> parser) {
        String value = raw.get(flag).trim();
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid value '" + value + "' for " + flag.flagName() + ": "
                    + (e instanceof NumberFormatException ? "not a number" : e.getMessage()));
        }
    }
}
