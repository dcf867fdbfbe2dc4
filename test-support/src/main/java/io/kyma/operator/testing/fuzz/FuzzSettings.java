package io.kyma.operator.testing.fuzz;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * How long a generated suite runs, from system properties: {@code fuzz.seed} (the first seed), {@code fuzz.seeds}
 * (how many seeds, counting up from it), {@code fuzz.steps} (actions per seed), {@code fuzz.duration} (stop starting
 * seeds after this, for example {@code 30m}), {@code fuzz.keep} (run only these positions of the first seed's
 * sequence, as a shrunk script prints them) and {@code fuzz.shrink} (candidates to run while shrinking, 0 for none).
 */
public record FuzzSettings(
        long seed, int seeds, int steps, Duration duration, List<Integer> keep, int shrinkBudget, boolean settleEach) {
    /** The settings of the system properties, each missing one taken from {@code defaults}. */
    public static FuzzSettings fromSystemProperties(FuzzSettings defaults) {
        return new FuzzSettings(
                Long.parseLong(property("fuzz.seed", Long.toString(defaults.seed()))),
                Integer.parseInt(property("fuzz.seeds", Integer.toString(defaults.seeds()))),
                Integer.parseInt(property("fuzz.steps", Integer.toString(defaults.steps()))),
                duration(property("fuzz.duration", "")),
                keep(property("fuzz.keep", "")),
                Integer.parseInt(property("fuzz.shrink", Integer.toString(defaults.shrinkBudget()))),
                Boolean.parseBoolean(property("fuzz.settleEach", Boolean.toString(defaults.settleEach()))));
    }

    /** Whether a seed started now, {@code elapsed} after the first, is still within the duration (if any). */
    public boolean withinDuration(Duration elapsed) {
        return duration == null || elapsed.compareTo(duration) < 0;
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value.strip();
    }

    /** 90s, 30m, 2h, or empty for none. */
    static Duration duration(String text) {
        if (text.isEmpty()) {
            return null;
        }
        long amount = Long.parseLong(text.substring(0, text.length() - 1));
        return switch (text.charAt(text.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount);
            case 'm' -> Duration.ofMinutes(amount);
            case 'h' -> Duration.ofHours(amount);
            default -> throw new IllegalArgumentException("fuzz.duration must look like 90s, 30m or 2h: " + text);
        };
    }

    static List<Integer> keep(String text) {
        return text.isEmpty()
                ? List.of()
                : Arrays.stream(text.split(","))
                        .map(String::strip)
                        .map(Integer::valueOf)
                        .toList();
    }
}
