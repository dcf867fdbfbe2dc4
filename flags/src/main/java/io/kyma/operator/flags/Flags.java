package io.kyma.operator.flags;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A program's flags, read in one place: command-line arguments ({@code --name value}, {@code --name=value}, a switch
 * alone), then environment variables (when the program has a prefix for them), then defaults. Every value is parsed
 * before any is used, so a bad one is reported whichever part of the program would have read it.
 */
public final class Flags {
    private final String envPrefix;
    private final List<Flag<?>> flags;
    /** Whether arguments after {@code --} are taken (and handed on), rather than refused. */
    private final boolean takesRest;

    private Flags(String envPrefix, List<Flag<?>> flags, boolean takesRest) {
        this.envPrefix = envPrefix;
        this.takesRest = takesRest;
        this.flags = List.copyOf(flags);
        Set<String> names = new HashSet<>();
        for (Flag<?> flag : flags) {
            if (!names.add(flag.name())) {
                throw new IllegalArgumentException("flag " + flag.flagName() + " is defined twice");
            }
        }
    }

    /** Flags without environment variables. */
    public static Flags of(List<Flag<?>> flags) {
        return new Flags("", flags, false);
    }

    /** Flags without environment variables, followed by {@code --} and arguments for another program. */
    public static Flags withRest(List<Flag<?>> flags) {
        return new Flags("", flags, true);
    }

    /** Flags each of which can also be given by the variable {@code envPrefix} + its name in upper snake case. */
    public static Flags withEnvironment(String envPrefix, List<Flag<?>> flags) {
        if (envPrefix.isEmpty()) {
            throw new IllegalArgumentException("an environment prefix must not be empty");
        }
        return new Flags(envPrefix, flags, false);
    }

    public List<Flag<?>> all() {
        return flags;
    }

    /** The variable of a flag, if this program reads variables. */
    public Optional<String> envName(Flag<?> flag) {
        return envPrefix.isEmpty() ? Optional.empty() : Optional.of(flag.envName(envPrefix));
    }

    /**
     * @param env the environment; ignored when these flags have no prefix
     * @throws HelpRequested for {@code --help} or {@code -h}
     * @throws FlagException for an unknown flag, a missing or bad value
     */
    public Values parse(String[] args, Map<String, String> env) {
        Map<Flag<?>, String> texts = new LinkedHashMap<>();
        Set<Flag<?>> given = new HashSet<>();
        for (Flag<?> flag : flags) {
            String fromEnv = envPrefix.isEmpty() ? null : env.get(flag.envName(envPrefix));
            texts.put(flag, fromEnv == null ? flag.defaultText() : fromEnv);
            if (fromEnv != null) {
                given.add(flag);
            }
        }
        List<String> rest = List.of();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                throw new HelpRequested();
            }
            if (arg.equals("--") && takesRest) {
                rest = List.of(args).subList(i + 1, args.length);
                break;
            }
            if (!arg.startsWith("--") || arg.equals("--")) {
                throw new FlagException("unexpected argument '" + arg + "'; see --help");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            Flag<?> flag = find(name).orElseThrow(() -> new FlagException("unknown flag --" + name + "; see --help"));
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag.isSwitch() && (i + 1 >= args.length || args[i + 1].startsWith("--"))) {
                value = "true";
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new FlagException(flag.flagName() + " needs a value");
            }
            texts.put(flag, value);
            given.add(flag);
        }
        Map<Flag<?>, Object> values = new LinkedHashMap<>();
        for (Map.Entry<Flag<?>, String> text : texts.entrySet()) {
            values.put(text.getKey(), text.getKey().parse(text.getValue()));
        }
        return new Values(values, texts, given, rest);
    }

    /** The text of {@code --help}: the header, then each flag with its meaning, variable and default. */
    public String usage(String header) {
        StringBuilder out = new StringBuilder(header.endsWith("\n") ? header : header + "\n");
        out.append("\nFlags:\n");
        out.append(String.format("  %-36s %s%n", "-h, --help", "Print this text and exit."));
        for (Flag<?> flag : flags) {
            String where = envName(flag).map(env -> "env " + env + ", ").orElse("");
            out.append(String.format(
                    "  %-36s %s%n  %-36s (%sdefault \"%s\")%n",
                    flag.flagName() + (flag.isSwitch() ? "" : " value"),
                    flag.description().replace("`", ""),
                    "",
                    where,
                    flag.defaultText()));
        }
        return out.toString();
    }

    /** A Markdown table of the flags (flag, variable if any, default, meaning), for the documentation. */
    public String markdownTable() {
        boolean env = !envPrefix.isEmpty();
        StringBuilder out = new StringBuilder(
                env
                        ? "| flag | environment variable | default | meaning |\n|---|---|---|---|\n"
                        : "| flag | default | meaning |\n|---|---|---|\n");
        for (Flag<?> flag : flags) {
            out.append("| `").append(flag.flagName()).append("` | ");
            if (env) {
                out.append('`').append(flag.envName(envPrefix)).append("` | ");
            }
            out.append(flag.defaultText().isEmpty() ? "(empty)" : "`" + flag.defaultText() + "`")
                    .append(" | ")
                    .append(flag.description().replace("|", "\\|"))
                    .append(" |\n");
        }
        return out.toString();
    }

    private Optional<Flag<?>> find(String name) {
        return flags.stream().filter(flag -> flag.name().equals(name)).findFirst();
    }

    /** The parsed values. */
    public static final class Values {
        private final Map<Flag<?>, Object> values;
        private final Map<Flag<?>, String> texts;
        private final Set<Flag<?>> given;
        private final List<String> rest;

        private Values(Map<Flag<?>, Object> values, Map<Flag<?>, String> texts, Set<Flag<?>> given, List<String> rest) {
            this.values = values;
            this.texts = texts;
            this.given = given;
            this.rest = rest;
        }

        /** The flag's value. */
        @SuppressWarnings("unchecked")
        public <T> T get(Flag<T> flag) {
            if (!values.containsKey(flag)) {
                throw new IllegalArgumentException(flag.flagName() + " is not one of these flags");
            }
            return (T) values.get(flag);
        }

        /** The flag's text as given (or its default's), for messages about it. */
        public String text(Flag<?> flag) {
            return texts.get(flag);
        }

        /** Whether the flag or its variable was given, even with the default's value. */
        public boolean given(Flag<?> flag) {
            return given.contains(flag);
        }

        /** The arguments after {@code --}, when these flags take them; else empty. */
        public List<String> rest() {
            return rest;
        }
    }
}
