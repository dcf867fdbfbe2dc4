package io.kyma.operator.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.kyma.operator.common.GoDuration;

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
        String logLevel) {

    public static final String ENV_PREFIX = "KYMA_OPERATOR_";

    /** Every flag, its default and its meaning; the order is the order of {@code --help}. */
    public enum Flag {
        KUBECONFIG("kubeconfig", "", "Path of a kubeconfig file; empty uses $KUBECONFIG, ~/.kube/config or the in-cluster account."),
        NAMESPACE("namespace", "", "Namespace to watch; empty watches all namespaces."),
        TRANSITION_UNIT("transition-unit", "1s", "Time unit of the HelmComponent lifecycle (pending 1 unit, then N units per state, N = length of the module name)."),
        KYMA_STATUS_INTERVAL("kyma-status-interval", "5s", "Least time between two Kyma status writes that only update component counts."),
        MAX_CONCURRENT_RECONCILES("max-concurrent-reconciles", "50", "Size of the reconcile thread pool shared by all controllers."),
        LOG_LEVEL("log-level", "info", "Log level: error, warn, info, debug or trace.");

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
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new ConfigException(flag.flagName() + " needs a value");
            }
            raw.put(flag, value);
        }
        return new ManagerConfig(
                optional(raw.get(Flag.KUBECONFIG)),
                optional(raw.get(Flag.NAMESPACE)),
                positiveDuration(Flag.TRANSITION_UNIT, raw),
                positiveDuration(Flag.KYMA_STATUS_INTERVAL, raw),
                intAtLeast(Flag.MAX_CONCURRENT_RECONCILES, raw, 1),
                oneOf(Flag.LOG_LEVEL, raw, List.of("error", "warn", "info", "debug", "trace")));
    }

    /** The text of {@code --help}. */
    public static String usage() {
        StringBuilder out = new StringBuilder("Usage: java -jar kyma-operator.jar [flags]\n\n"
                + "Runs the Kyma, HelmComponent and Run controllers. Every flag can also be set by an environment\n"
                + "variable: " + ENV_PREFIX + "<FLAG IN UPPER SNAKE CASE>; a flag wins over its variable.\n\nFlags:\n");
        for (Flag flag : Flag.values()) {
            out.append(String.format("  %-36s %s%n  %-36s (env %s, default \"%s\")%n", flag.flagName() + " value",
                    flag.description, "", flag.envName(), flag.defaultValue));
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
        parts.add("log-level=" + logLevel);
        return String.join(" ", parts);
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

    private static int intAtLeast(Flag flag, Map<Flag, String> raw, int min) {
        int value = convert(flag, raw, Integer::parseInt);
        if (value < min) {
            throw new ConfigException(flag.flagName() + " must be at least " + min + ", got " + value);
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
                    + (e instanceof NumberFormatException ? "not a whole number" : e.getMessage()));
        }
    }
}
