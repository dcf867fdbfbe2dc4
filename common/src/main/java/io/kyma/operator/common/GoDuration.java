package io.kyma.operator.common;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations in Go's notation ({@code 500ms}, {@code 5s}, {@code 1m30s}, {@code 1h}), as used in specs and flags. */
public final class GoDuration {
    private static final Pattern WHOLE = Pattern.compile("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+");
    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|ms|s|m|h)");

    private GoDuration() {
    }

    /**
     * Parses a non-negative duration.
     *
     * @throws IllegalArgumentException naming the expected form when {@code text} is not a duration
     */
    public static Duration parse(String text) {
        if (text == null || !WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 500ms, 5s, 1m30s or 1h");
        }
        BigDecimal nanos = BigDecimal.ZERO;
        Matcher part = PART.matcher(text);
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPer(part.group(2)))));
        }
        return Duration.ofNanos(nanos.longValueExact());
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
