package io.kyma.operator.common;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations in Go's notation ({@code 500ms}, {@code 5s}, {@code 1m30s}, {@code 1h}), as used in specs and flags. */
public final class GoDuration {
    private static final Pattern WHOLE = Pattern.compile("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|ms|s|m|h)");

    private GoDuration() {}

    /** The longest duration Go can hold (2^63 - 1 ns), and so the longest accepted here. */
    public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);
    /** Longer than any number of digits a duration of at most {@link #MAX} needs; spares parsing huge inputs. */
    private static final int MAX_TEXT = 64;

    /**
     * Parses a non-negative duration. As in Go, fractions of a nanosecond are dropped.
     *
     * @throws IllegalArgumentException naming the expected form when {@code text} is not a duration, or saying that
     *         it is too long when it exceeds {@link #MAX}
     */
    public static Duration parse(String text) {
        if (text != null && text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("'" + shorten(text) + "' is longer than " + MAX_TEXT
                    + " characters, which no duration up to the longest, " + format(MAX) + ", needs");
        }
        if (text == null || !WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 500ms, 5s, 1m30s or 1h");
        }
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher part = PART.matcher(text);
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPer(part.group(2)))));
        }
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException(
                    "'" + shorten(text) + "' is longer than the longest duration, " + format(MAX));
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /** Parses a duration above zero, as a flag's interval or timeout must be. */
    public static Duration parsePositive(String text) {
        Duration value = parse(text);
        if (value.isZero()) {
            throw new IllegalArgumentException("must be greater than 0");
        }
        return value;
    }

    /** At most {@code max}: a duration from a spec or flag that must stay within what its user can handle. */
    public static Duration atMost(Duration value, Duration max, String what) {
        if (value.compareTo(max) > 0) {
            throw new IllegalArgumentException(what + " must be at most " + format(max) + ", got " + format(value));
        }
        return value;
    }

    private static String shorten(String text) {
        return text == null || text.length() <= MAX_TEXT ? String.valueOf(text) : text.substring(0, MAX_TEXT) + "...";
    }

    /** Formats a duration the way Go prints it, for example {@code 1m30s} or {@code 250ms}. */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            long nanos = duration.toNanos();
            if (nanos % 1_000_000 == 0) {
                return nanos / 1_000_000 + "ms";
            }
            return nanos % 1_000 == 0 ? nanos / 1_000 + "us" : nanos + "ns";
        }
        StringBuilder out = new StringBuilder();
        if (duration.toHours() > 0) {
            out.append(duration.toHours()).append('h');
        }
        if (duration.toMinutesPart() > 0) {
            out.append(duration.toMinutesPart()).append('m');
        }
        int seconds = duration.toSecondsPart();
        int millis = duration.toMillisPart();
        if (seconds > 0 || millis > 0) {
            out.append(seconds);
            if (millis > 0) {
                out.append('.').append(String.format("%03d", millis).replaceFirst("0+$", ""));
            }
            out.append('s');
        }
        return out.toString();
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new IllegalArgumentException("unknown unit " + unit);
        };
    }
}
