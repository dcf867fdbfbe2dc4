package io.kyma.operator.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The operator's collections, from the log the bench asks its JVM for ({@code -Xlog:gc:file=...:time}): how often
 * and how long the JVM stopped all threads, watch readers among them.
 */
/**
 * @param requests when a tool asked for a collection: the serial and G1 collectors log it as the cause of a pause,
 *     Shenandoah as the trigger of a cycle, ZGC as the cause of a collection
 * @param ownRequests when code in the process asked for one ({@code System.gc()}): the operator's heap return and heap
 *     ceiling, or the JDK's own when direct buffers run short
 */
record GcLog(List<Pause> pauses, List<Instant> requests, List<Instant> ownRequests) {
    /** The JVM option that writes the log this class reads. */
    static String option(Path file) {
        return "-Xlog:gc:file=" + file.toAbsolutePath() + ":time";
    }

    /** @param cause what the log gives in parentheses: "Allocation Failure", "Heap Inspection Initiated GC", ... */
    record Pause(Instant at, boolean full, double millis, String cause) {}

    /**
     * The causes a tool asks for: a class histogram, a heap dump, a jcmd. Not {@code System.gc()}: code in the process
     * calls that, the operator to hand the heap back after a burst and to keep its old generation under a ceiling
     * ({@code HeapReturner}, {@code HeapCeiling}), which a deployment does too.
     */
    static final Set<String> INDUCED = Set.of(
            "Heap Inspection Initiated GC",
            "Heap Dump Initiated GC",
            "Diagnostic Command",
            "WhiteBox Initiated Young GC",
            "WhiteBox Initiated Full GC");

    /** A span of time's collections: young and full ones, the time stopped in all, the longest full one. */
    record Summary(long young, long full, double stoppedSeconds, double longestFullMillis) {}

    // [2026-11-23T14:18:53.117+0000] GC(1554) Pause Young (Allocation Failure) 116M->109M(117M) 9.339ms
    private static final Pattern LINE = Pattern.compile(
            "^\\[([^\\]]+)\\].* Pause (Young|Full)\\b(?: \\((.*)\\) \\d+[KMG]?->)?.* (\\d+(?:\\.\\d+)?)ms\\s*$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    // [2026-11-26T18:08:56.286+0000] Trigger: GC request (Heap Inspection Initiated GC)      (Shenandoah)
    // [2026-11-26T18:08:56.286+0000] GC(12) Garbage Collection (System.gc()) 40M(20%)->20M(10%)  (ZGC)
    private static final Pattern REQUEST = Pattern.compile(
            "^\\[([^\\]]+)\\].* (?:Pause (?:Young|Full)|Trigger: GC request|Garbage Collection) \\((.*?\\)?)\\)");

    static GcLog parse(Stream<String> lines) {
        List<Pause> pauses = new ArrayList<>();
        List<Instant> requests = new ArrayList<>();
        List<Instant> ownRequests = new ArrayList<>();
        lines.forEach(line -> {
            Matcher pause = LINE.matcher(line);
            if (pause.find()) {
                pauses.add(new Pause(
                        OffsetDateTime.parse(pause.group(1), TIME).toInstant(),
                        "Full".equals(pause.group(2)),
                        Double.parseDouble(pause.group(4)),
                        pause.group(3) == null ? "" : pause.group(3)));
            }
            Matcher request = REQUEST.matcher(line);
            if (request.find()) {
                if (INDUCED.contains(request.group(2))) {
                    requests.add(OffsetDateTime.parse(request.group(1), TIME).toInstant());
                } else if ("System.gc()".equals(request.group(2))) {
                    ownRequests.add(OffsetDateTime.parse(request.group(1), TIME).toInstant());
                }
            }
        });
        return new GcLog(List.copyOf(pauses), List.copyOf(requests), List.copyOf(ownRequests));
    }

    /** The collections a tool asked for in [from, to). */
    long induced(Instant from, Instant to) {
        return within(requests, from, to);
    }

    /** The collections the operator's code asked for ({@code System.gc()}) in [from, to). */
    long own(Instant from, Instant to) {
        return within(ownRequests, from, to);
    }

    private static long within(List<Instant> times, Instant from, Instant to) {
        return times.stream()
                .filter(at -> !at.isBefore(from) && at.isBefore(to))
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
