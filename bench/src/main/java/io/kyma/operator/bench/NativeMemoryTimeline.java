package io.kyma.operator.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the operator's JVM had committed, part by part, every few seconds of the load: its native-memory summary
 * (only when the flags turn on {@code -XX:NativeMemoryTracking}) next to its RSS. Where the RSS goes when it peaks.
 */
final class NativeMemoryTimeline {
    /** The parts of the summary kept, in the order of the CSV's columns. */
    static final List<String> PARTS = List.of(
            "Java Heap",
            "Class",
            "Metaspace",
            "Shared class space",
            "Code",
            "Thread",
            "Compiler",
            "Arena Chunk",
            "GC",
            "Symbol",
            "Internal",
            "Other");

    private static final Pattern PART = Pattern.compile("^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern TOTAL = Pattern.compile("^Total: reserved=\\d+KB, committed=(\\d+)KB");

    private final OperatorUnderTest operator;
    private final long start = System.nanoTime();
    private final List<String> rows = new ArrayList<>();
    private final ScheduledExecutorService timer = Daemons.timer("bench-native-memory");

    NativeMemoryTimeline(OperatorUnderTest operator) {
        this.operator = operator;
    }

    void start(long everySeconds) {
        timer.scheduleWithFixedDelay(this::sample, 0, everySeconds, TimeUnit.SECONDS);
    }

    private void sample() {
        try {
            double rss = operator.rssMiB();
            Map<String, Long> parts = parse(operator.nativeMemory());
            StringBuilder row = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%.0f,%.1f,%.1f",
                    (System.nanoTime() - start) / 1e9,
                    rss,
                    parts.getOrDefault("Total", 0L) / 1024.0));
            for (String part : PARTS) {
                row.append(String.format(Locale.ROOT, ",%.1f", parts.getOrDefault(part, 0L) / 1024.0));
            }
            synchronized (rows) {
                rows.add(row.toString());
            }
        } catch (Exception e) {
            // a sample lost; the next one comes
        }
    }

    String stop() {
        timer.shutdownNow();
        StringBuilder csv = new StringBuilder("seconds,rss_mib,committed_mib");
        for (String part : PARTS) {
            csv.append(',')
                    .append(part.toLowerCase(Locale.ROOT).replace(' ', '_'))
                    .append("_mib");
        }
        csv.append('\n');
        synchronized (rows) {
            rows.forEach(r -> csv.append(r).append('\n'));
        }
        return csv.toString();
    }

    /** Committed KiB by part of a {@code VM.native_memory summary}, and its {@code Total}. */
    static Map<String, Long> parse(String summary) {
        Map<String, Long> committed = new LinkedHashMap<>();
        for (String line : summary.split("\n")) {
            Matcher total = TOTAL.matcher(line.trim());
            if (total.find()) {
                committed.put("Total", Long.parseLong(total.group(1)));
                continue;
            }
            Matcher part = PART.matcher(line.trim());
            if (part.find()) {
                committed.put(part.group(1).trim(), Long.parseLong(part.group(2)));
            }
        }
        return committed;
    }
}
