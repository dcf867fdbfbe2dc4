package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

class WatchClosesTest {
    private static final String LOG = """
            I1123 14:10:39.123456   12345 cacher.go:1238] Forcing watcher close due to unresponsiveness: *unstructured.Unstructured
            I1123 14:10:40.000000   12345 httplog.go:89] "HTTP" verb="PATCH"
            I1123 14:10:45.500000   12345 cacher.go:1238] Forcing watcher close due to unresponsiveness: *unstructured.Unstructured
            I1123 14:11:30.000001   12345 cacher.go:1238] Forcing watcher close due to unresponsiveness: *unstructured.Unstructured
            Forcing watcher close due to unresponsiveness: a line without a header is not counted
            """;

    private static Instant at(String time) {
        return Instant.parse("2026-11-23T" + time + "Z");
    }

    @Test
    void readsTheTimeOfEachCloseFromTheKlogHeader() {
        WatchCloses closes = WatchCloses.parse(LOG.lines(), ZoneOffset.UTC, at("15:00:00"));
        assertThat(closes.times())
                .containsExactly(
                        Instant.parse("2026-11-23T14:10:39.123456Z"),
                        at("14:10:45.5"),
                        Instant.parse("2026-11-23T14:11:30.000001Z"));
    }

    @Test
    void writesTheClosesOfTheLoadAsSecondsFromItsStart() {
        WatchCloses closes = WatchCloses.parse(LOG.lines(), ZoneOffset.UTC, at("15:00:00"));
        assertThat(closes.csv(at("14:10:40"), at("14:11:30"))).isEqualTo("seconds\n5.500\n");
    }

    @Test
    void aLineFromLateDecemberReadOnNewYearsDayIsLastYears() {
        WatchCloses closes = WatchCloses.parse(
                "I1231 23:59:59.000000 1 cacher.go:1238] Forcing watcher close due to unresponsiveness: x".lines(),
                ZoneOffset.UTC,
                Instant.parse("2027-01-01T00:00:05Z"));
        assertThat(closes.times()).containsExactly(Instant.parse("2026-12-31T23:59:59Z"));
    }

    @Test
    void countsTheClosesOfTheLoadAndThoseInOrJustAfterAPauseOfTheBench() {
        WatchCloses closes = WatchCloses.parse(LOG.lines(), ZoneOffset.UTC, at("15:00:00"));
        List<WatchCloses.Pause> pauses = List.of(
                new WatchCloses.Pause(at("14:10:38"), at("14:10:39")),
                new WatchCloses.Pause(at("14:11:00"), at("14:11:01")));
        // 14:10:39.12 is 0.12 s after the first pause: the pause's; 14:10:45.5 and 14:11:30 are the operator's own
        assertThat(closes.count(at("14:10:00"), at("14:12:00"), pauses, List.of()))
                .isEqualTo(new WatchCloses.Count(3, 1, -1, -1));
        // only the load's span counts
        assertThat(closes.count(at("14:10:40"), at("14:11:00"), pauses, List.of()))
                .isEqualTo(new WatchCloses.Count(1, 0, -1, -1));
        assertThat(closes.count(at("14:10:00"), at("14:12:00"), List.of(), List.of()))
                .isEqualTo(new WatchCloses.Count(3, 0, -1, -1));
    }

    @Test
    void takesTheLargestBacklogOfTheSecondBeforeEachCloseOfTheSpan() {
        WatchCloses closes = WatchCloses.parse(LOG.lines(), ZoneOffset.UTC, at("15:00:00"));
        List<SocketBacklog.Sample> backlog = List.of(
                new SocketBacklog.Sample(at("14:10:38"), 90_000, 1), // 1.12 s before the first close: too early
                new SocketBacklog.Sample(at("14:10:39"), 2_048, 4_096),
                new SocketBacklog.Sample(at("14:10:45.25"), 1_024, 8_192),
                new SocketBacklog.Sample(at("14:10:45.75"), 70_000, 70_000), // after the close
                new SocketBacklog.Sample(at("14:11:29.5"), 0, 512));
        assertThat(closes.count(at("14:10:00"), at("14:12:00"), List.of(), backlog))
                .isEqualTo(new WatchCloses.Count(3, 0, 2_048, 8_192));
        // the close at 14:11:30 alone
        assertThat(closes.count(at("14:11:00"), at("14:12:00"), List.of(), backlog))
                .isEqualTo(new WatchCloses.Count(1, 0, 0, 512));
    }
}
