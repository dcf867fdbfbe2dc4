package io.kyma.operator.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The watchers the API server closed for not reading fast enough, with the time of each, and which of them fell
 * while the bench itself held the operator stopped (a full collection it forced to weigh the live heap): those say
 * how long a pause the API server tolerates, not how the operator keeps up on its own.
 */
record WatchCloses(List<Instant> times) {
    static final String MESSAGE = "Forcing watcher close due to unresponsiveness";
    /** After a pause ends the operator reads what queued up; a close this soon after still belongs to the pause. */
    static final Duration GRACE = Duration.ofSeconds(2);
    // klog's header: level, month and day, wall-clock time to the microsecond ("I1123 14:10:39.123456")
    private static final Pattern KLOG =
            Pattern.compile("^[IWEF](\\d{2})(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})\\.(\\d{6})");

    /** A span of time the bench held the operator stopped. */
    record Pause(Instant start, Instant end) {}

    /**
     * The closes of a span of time: all of them, those that fell in one of the bench's pauses, and the most bytes the
     * operator (and the API server, of the operator's requests) had left unread on one socket in the second before
     * any of them; -1 when nothing was sampled then.
     */
    record Count(long all, long duringPauses, long operatorUnreadBefore, long apiserverUnreadBefore) {}

    /**
     * The closes in API-server log lines; klog writes no year, so it is the year of {@code now} unless that would
     * put the line in the future.
     */
    static WatchCloses parse(Stream<String> lines, ZoneId zone, Instant now) {
        List<Instant> times = new ArrayList<>();
        int year = now.atZone(zone).getYear();
        lines.filter(l -> l.contains(MESSAGE)).forEach(line -> {
            Matcher m = KLOG.matcher(line);
            if (!m.find()) {
                return;
            }
            LocalDateTime at = LocalDateTime.of(
                    year,
                    Integer.parseInt(m.group(1)),
                    Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4)),
                    Integer.parseInt(m.group(5)),
                    Integer.parseInt(m.group(6)) * 1000);
            Instant instant = at.atZone(zone).toInstant();
            if (instant.isAfter(now.plus(Duration.ofDays(1)))) {
                instant = at.minusYears(1).atZone(zone).toInstant();
            }
            times.add(instant);
        });
        return new WatchCloses(List.copyOf(times));
    }

    /** The closes in [from, to), one line each: seconds since {@code from}. */
    String csv(Instant from, Instant to) {
        StringBuilder out = new StringBuilder("seconds\n");
        times.stream()
                .filter(t -> !t.isBefore(from) && t.isBefore(to))
                .sorted()
                .forEach(t -> out.append(String.format(
                        Locale.ROOT, "%.3f%n", Duration.between(from, t).toNanos() / 1e9)));
        return out.toString();
    }

    /**
     * Closes in [from, to), of those the ones in one of the pauses or within {@link #GRACE} after it, and the socket
     * backlogs sampled before them.
     */
    Count count(Instant from, Instant to, List<Pause> pauses, List<SocketBacklog.Sample> backlog) {
        List<Instant> span =
                times.stream().filter(t -> !t.isBefore(from) && t.isBefore(to)).toList();
        long paused = span.stream()
                .filter(t -> pauses.stream()
                        .anyMatch(p ->
                                !t.isBefore(p.start()) && !t.isAfter(p.end().plus(GRACE))))
                .count();
        return new Count(
                span.size(),
                paused,
                SocketBacklog.maxBefore(backlog, span, SocketBacklog.Sample::operatorUnread),
                SocketBacklog.maxBefore(backlog, span, SocketBacklog.Sample::apiserverUnread));
    }
}
