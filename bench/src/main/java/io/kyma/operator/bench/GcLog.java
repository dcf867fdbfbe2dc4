package io.kyma.operator.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The operator's collections, from the log the bench asks its JVM for ({@code -Xlog:gc:file=...:time}): how often
 * and how long the JVM stopped all threads, watch readers among them.
 */
record GcLog(List<Pause> pauses) {
    /** The JVM option that writes the log this class reads. */
    static String option(Path file) {
        return "-Xlog:gc:file=" + file.toAbsolutePath() + ":time";
    }

    /** @param cause what the log gives in parentheses: "Allocation Failure", "Heap Inspection Initiated GC", ... */
    record Pause(Instant at, boolean full, double millis, String cause) {
        /** Whether something outside the collector's own policy asked for it: a probe or a System.gc(). */
        boolean induced() {
            return INDUCED.contains(cause);
        }
    }

    /** The causes a tool or the code asks for: a class histogram, a heap dump, {@code System.gc()}, a jcmd. */
    static final Set<String> INDUCED = Set.of(
            "Heap Inspection Initiated GC",
            "Heap Dump Initiated GC",
            "System.gc()",
            "Diagnostic Command",
            "WhiteBox Initiated Young GC",
            "WhiteBox Initiated Full GC");

    /** A span of time's collections: young and full ones, the time stopped in all, the longest full one. */
    record Summary(long young, long full, double stoppedSeconds, double longestFullMillis) {}

    // [2026-11-23T14:18:53.117+0000] GC(1554) Pause Young (Allocation Failure) 116M->109M(117M) 9.339ms
    private static final Pattern LINE = Pattern.compile(
            "^\\[([^\\]]+)\\].* Pause (Young|Full)\\b(?: \\((.*)\\) \\d+[KMG]?->)?.* (\\d+(?:\\.\\d+)?)ms\\s*$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    static GcLog parse(Stream<String> lines) {
        return new GcLog(lines.map(LINE::matcher)
                .filter(Matcher::find)
                .map(m -> new Pause(
                        OffsetDateTime.parse(m.group(1), TIME).toInstant(),
                        "Full".equals(m.group(2)),
                        Double.parseDouble(m.group(4)),
                        m.group(3) == null ? "" : m.group(3)))
                .toList());
    }

    /** The collections something outside the collector asked for in [from, to). */
    long induced(Instant from, Instant to) {
        return pauses.stream()
                .filter(p -> !p.at().isBefore(from) && p.at().isBefore(to))
                .filter(Pause::induced)
                .count();
    }

    /** The pauses that began in [from, to). */
    Summary summary(Instant from, Instant to) {
        List<Pause> span = pauses.stream()
                .filter(p -> !p.at().isBefore(from) && p.at().isBefore(to))
                .toList();
        return new Summary(
                span.stream().filter(p -> !p.full()).count(),
                span.stream().filter(Pause::full).count(),
                span.stream().mapToDouble(Pause::millis).sum() / 1000,
                span.stream()
                        .filter(Pause::full)
                        .mapToDouble(Pause::millis)
                        .max()
                        .orElse(0));
    }
}
