package io.kyma.operator.manager.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.HelpRequested;
import io.kyma.operator.flags.Parsers;
import io.kyma.operator.manager.shard.Shards;

/**
 * The manager's configuration, read in one place: command-line flags, then environment variables
 * ({@code KYMA_OPERATOR_} plus the flag in upper snake case), then defaults. It is handed out in parts, each to the
 * code that uses it.
 */
public final class ManagerConfig {
    public static final String ENV_PREFIX = "KYMA_OPERATOR_";

    static final Flag<String> LOG_LEVEL = Flag.of(
            "log-level",
            "info",
            "Log level: `error`, `warn`, `info`, `debug` or `trace`.",
            Parsers.oneOf(List.of("error", "warn", "info", "debug", "trace")));

    static final Flag<String> LOG_FORMAT = Flag.of(
            "log-format",
            "text",
            "Log format: `text`, or `json` for one JSON object per line (logback's encoder) with the reconciled"
                    + " object's `resource.kind`, `resource.namespace`, `resource.name` and a `reconcileID` in `mdc`.",
            Parsers.oneOf(List.of("text", "json")));

    static final Flag<String> CRD_CHECK = Flag.of(
            "crd-check",
            "fail",
            "At start-up, compare the installed CRDs with the ones this version ships: `fail` exits (code 2) when"
                    + " one lacks a field, a type, an enum value, the status subresource or the version, `warn` logs"
                    + " it and starts, `off` skips the comparison (for example to roll back below a newer CRD).",
            Parsers.oneOf(List.of("fail", "warn", "off")));

    /** Every flag; the order is the order of {@code --help} and of the documentation's table. */
    public static final Flags FLAGS = Flags.withEnvironment(
            ENV_PREFIX,
            Stream.of(
                            ClientSettings.FLAGS,
                            ReconcileSettings.FLAGS,
                            List.<Flag<?>>of(LOG_LEVEL, LOG_FORMAT, CRD_CHECK),
                            RetrySettings.FLAGS,
                            EndpointSettings.FLAGS,
                            KymaSettings.FLAGS,
                            JobServiceSettings.FLAGS,
                            LeaderSettings.FLAGS,
                            ShardSettings.FLAGS)
                    .flatMap(List::stream)
                    .toList());

    private final String logLevel;
    private final String logFormat;
    private final String crdCheck;
    private final ClientSettings client;
    private final ReconcileSettings reconcile;
    private final RetrySettings retry;
    private final EndpointSettings endpoints;
    private final KymaSettings kyma;
    private final JobServiceSettings jobs;
    private final LeaderSettings leader;
    private final Shards shards;
    private final String description;

    private ManagerConfig(Flags.Values values) {
        this.logLevel = values.get(LOG_LEVEL);
        this.logFormat = values.get(LOG_FORMAT);
        this.crdCheck = values.get(CRD_CHECK);
        this.client = ClientSettings.from(values);
        this.reconcile = ReconcileSettings.from(values);
        this.retry = RetrySettings.from(values);
        this.endpoints = EndpointSettings.from(values);
        this.kyma = KymaSettings.from(values);
        this.jobs = JobServiceSettings.from(values);
        this.leader = LeaderSettings.from(values, reconcile.namespace());
        this.shards = ShardSettings.from(values);
        List<String> parts = new ArrayList<>();
        for (Flag<?> flag : FLAGS.all()) {
            String text =
                    flag == LeaderSettings.ID ? leader.id() : values.text(flag).trim();
            parts.add(flag.name() + "="
                    + (text.isEmpty() ? "(empty)" : text.matches(".*\\s.*") ? "'" + text + "'" : text));
        }
        this.description = String.join(" ", parts);
    }

    /**
     * @throws HelpRequested for {@code --help} or {@code -h}
     * @throws FlagException for a bad flag or value, naming the flag
     */
    public static ManagerConfig parse(String[] args, Map<String, String> env) {
        return new ManagerConfig(FLAGS.parse(args, env));
    }

    /** The text of {@code --help}. */
    public static String usage() {
        return FLAGS.usage("Usage: java -jar kyma-operator.jar [flags]\n\n"
                + "Runs the Kyma, HelmComponent and Run controllers. Every flag can also be set by an environment\n"
                + "variable: " + ENV_PREFIX + "<FLAG IN UPPER SNAKE CASE>; a flag wins over its variable.\n"
                + "--version prints the version and the commit it was built from.");
    }

    /** The effective configuration, one {@code flag=value} pair each, for the start-up log. */
    public String describe() {
        return description;
    }

    public String logLevel() {
        return logLevel;
    }

    public String logFormat() {
        return logFormat;
    }

    /** {@code fail}, {@code warn} or {@code off}: what an installed CRD older than this version's does. */
    public String crdCheck() {
        return crdCheck;
    }

    public ClientSettings client() {
        return client;
    }

    public ReconcileSettings reconcile() {
        return reconcile;
    }

    public RetrySettings retry() {
        return retry;
    }

    public EndpointSettings endpoints() {
        return endpoints;
    }

    public KymaSettings kyma() {
        return kyma;
    }

    public JobServiceSettings jobs() {
        return jobs;
    }

    public LeaderSettings leader() {
        return leader;
    }

    public Shards shards() {
        return shards;
    }

    /** The leader-election Lease of this replica. */
    public String leaseName() {
        return leader.leaseName(shards);
    }
}
