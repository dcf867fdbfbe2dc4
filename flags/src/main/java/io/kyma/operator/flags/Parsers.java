package io.kyma.operator.flags;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** Parsers of the common kinds of flag values, each refusing what it cannot use with a message that says why. */
public final class Parsers {
    private Parsers() {}

    /** {@code true} or {@code false}, in any case. */
    public static Function<String, Boolean> bool() {
        return text -> {
            String value = text.toLowerCase(Locale.ROOT);
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("must be true or false");
            }
            return Boolean.parseBoolean(value);
        };
    }

    /** Any text. */
    public static Function<String, String> text() {
        return text -> text;
    }

    /** Empty when the text is empty, else the parsed value. */
    public static <T> Function<String, Optional<T>> optional(Function<String, T> parser) {
        return text -> text.isEmpty() ? Optional.empty() : Optional.of(parser.apply(text));
    }

    /** A whole number from {@code min} to {@code max}. */
    public static Function<String, Integer> integer(int min, int max) {
        return text -> {
            int value = Integer.parseInt(text);
            if (value < min) {
                throw new IllegalArgumentException("must be at least " + min + ", got " + value);
            }
            if (value > max) {
                throw new IllegalArgumentException("must be at most " + max + ", got " + value);
            }
            return value;
        };
    }

    /** A finite number. */
    public static Function<String, Double> number() {
        return text -> {
            double value = Double.parseDouble(text);
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                throw new NumberFormatException(text);
            }
            return value;
        };
    }

    /** A finite number from {@code min} to {@code max}. */
    public static Function<String, Double> number(double min, double max) {
        return number().andThen(value -> {
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "must be from " + plain(min) + " to " + plain(max) + ", got " + plain(value));
            }
            return value;
        });
    }

    /** A finite number no less than {@code min}. */
    public static Function<String, Double> numberAtLeast(double min) {
        return number().andThen(value -> {
            if (value < min) {
                throw new IllegalArgumentException("must be at least " + plain(min) + ", got " + plain(value));
            }
            return value;
        });
    }

    /** A finite number greater than 0. */
    public static Function<String, Double> positiveNumber() {
        return number().andThen(value -> {
            if (value <= 0) {
                throw new IllegalArgumentException("must be greater than 0");
            }
            return value;
        });
    }

    /** One of {@code allowed}, in any case; the value is given in lower case. */
    public static Function<String, String> oneOf(List<String> allowed) {
        return text -> {
            String value = text.toLowerCase(Locale.ROOT);
            if (!allowed.contains(value)) {
                throw new IllegalArgumentException("must be one of " + String.join(", ", allowed));
            }
            return value;
        };
    }

    /** A number as a person writes it: without a fraction when it has none. */
    public static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : Double.toString(value);
    }
}
