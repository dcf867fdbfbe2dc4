package io.kyma.operator.flags;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One command-line flag: its name (without the dashes), the text of its default, what it means and how its text
 * becomes a value. A switch may stand alone, meaning {@code true}.
 *
 * @param <T> the type of its value
 */
public final class Flag<T> {
    private final String name;
    private final String defaultText;
    private final String description;
    private final Function<String, T> parser;
    private final boolean isSwitch;

    private Flag(String name, String defaultText, String description, Function<String, T> parser, boolean isSwitch) {
        if (!name.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("a flag's name is lower-case words joined by dashes, got " + name);
        }
        this.name = name;
        this.defaultText = Objects.requireNonNull(defaultText);
        this.description = Objects.requireNonNull(description);
        this.parser = Objects.requireNonNull(parser);
        this.isSwitch = isSwitch;
    }

    /**
     * @param parser turns the flag's text (trimmed) into its value; an {@link IllegalArgumentException} it throws
     *     becomes a {@link FlagException} that names the flag
     */
    public static <T> Flag<T> of(String name, String defaultText, String description, Function<String, T> parser) {
        return new Flag<>(name, defaultText, description, parser, false);
    }

    /** A true-or-false flag that, given without a value, means {@code true}. */
    public static Flag<Boolean> ofSwitch(String name, String defaultText, String description) {
        return new Flag<>(name, defaultText, description, Parsers.bool(), true);
    }

    public String name() {
        return name;
    }

    /** {@code --name} */
    public String flagName() {
        return "--" + name;
    }

    /** The environment variable that gives this flag a value: the prefix and the name in upper snake case. */
    public String envName(String prefix) {
        return prefix + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    public String defaultText() {
        return defaultText;
    }

    public String description() {
        return description;
    }

    public boolean isSwitch() {
        return isSwitch;
    }

    T parse(String text) {
        String value = text.trim();
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new FlagException("invalid value '" + value + "' for " + flagName() + ": "
                    + (e instanceof NumberFormatException ? "not a number" : e.getMessage()));
        }
    }

    @Override
    public String toString() {
        return flagName();
    }
}
