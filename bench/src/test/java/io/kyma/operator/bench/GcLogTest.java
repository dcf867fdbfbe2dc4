package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class GcLogTest {
    private static final String LOG = """
            [2026-11-23T14:14:50.100+0000] Using Serial
            [2026-11-23T14:14:50.617+0000] GC(46) Pause Full (Metadata GC Threshold) 9M->8M(13M) 13.309ms
            [2026-11-23T14:16:33.071+0000] GC(248) Pause Young (Allocation Failure) 63M->60M(64M) 2.590ms
            [2026-11-23T14:16:33.138+0000] GC(249) Pause Young (Allocation Failure) 64M->60M(64M) 3.557ms
            [2026-11-23T14:16:43.689+0000] GC(445) Pause Full (Allocation Failure) 123M->17M(146M) 69.898ms
            [2026-11-23T14:16:51.634+0000] GC(473) Pause Full (Heap Inspection Initiated GC) 35M->22M(137M) 99.436ms
            """;

    @Test
    void summarisesThePausesOfASpanOfTime() {
        GcLog log = GcLog.parse(LOG.lines());
        assertThat(log.pauses()).hasSize(5);
        GcLog.Summary load = log.summary(Instant.parse("2026-11-23T14:16:00Z"), Instant.parse("2026-11-23T14:16:50Z"));
        assertThat(load.young()).isEqualTo(2);
        assertThat(load.full()).isEqualTo(1);
        assertThat(load.stoppedSeconds()).isCloseTo((2.590 + 3.557 + 69.898) / 1000, Offset.offset(1e-9));
        assertThat(load.longestFullMillis()).isEqualTo(69.898);
        assertThat(log.summary(Instant.parse("2026-11-23T15:00:00Z"), Instant.parse("2026-11-23T16:00:00Z")))
                .isEqualTo(new GcLog.Summary(0, 0, 0, 0));
    }

    @Test
    void countsTheCollectionsAToolOrTheCodeAskedFor() {
        GcLog log = GcLog.parse((LOG + """
                        [2026-11-23T14:17:00.000+0000] GC(500) Pause Full (System.gc()) 30M->20M(137M) 50.000ms
                        [2026-11-23T14:17:01.000+0000] GC(501) Pause Young (Allocation Failure) 64M->60M(64M) 2.000ms
                        """).lines());
        assertThat(log.pauses())
                .extracting(GcLog.Pause::cause)
                .containsExactly(
                        "Metadata GC Threshold",
                        "Allocation Failure",
                        "Allocation Failure",
                        "Allocation Failure",
                        "Heap Inspection Initiated GC",
                        "System.gc()",
                        "Allocation Failure");
        Instant start = Instant.parse("2026-11-23T14:00:00Z");
        assertThat(log.induced(start, Instant.parse("2026-11-23T14:16:51Z"))).isZero();
        assertThat(log.induced(start, Instant.parse("2026-11-23T15:00:00Z")))
                .as("the class histogram; System.gc() is the operator's own")
                .isEqualTo(1);
        assertThat(log.own(start, Instant.parse("2026-11-23T15:00:00Z"))).isEqualTo(1);
    }

    @Test
    void countsTheCollectionsAskedForOfShenandoahAndZgcToo() {
        GcLog log = GcLog.parse("""
                [2026-11-26T18:00:22.901+0000] Using Shenandoah
                [2026-11-26T18:05:00.000+0000] Trigger: Free (10M) is below minimum threshold (12M)
                [2026-11-26T18:08:56.286+0000] Trigger: GC request (Heap Inspection Initiated GC)
                [2026-11-26T18:09:00.000+0000] GC(12) Garbage Collection (System.gc()) 40M(20%)->20M(10%)
                [2026-11-26T18:09:01.000+0000] GC(13) Garbage Collection (Allocation Rate) 40M(20%)->20M(10%)
                """.lines());
        assertThat(log.induced(Instant.parse("2026-11-26T18:00:00Z"), Instant.parse("2026-11-26T19:00:00Z")))
                .isEqualTo(1);
        assertThat(log.own(Instant.parse("2026-11-26T18:00:00Z"), Instant.parse("2026-11-26T19:00:00Z")))
                .isEqualTo(1);
    }

    @Test
    void theOptionWritesWallClockTimes() {
        assertThat(GcLog.option(Path.of("/x/operator-gc.log"))).isEqualTo("-Xlog:gc:file=/x/operator-gc.log:time");
    }
}
