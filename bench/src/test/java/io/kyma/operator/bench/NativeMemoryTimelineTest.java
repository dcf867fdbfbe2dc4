package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NativeMemoryTimelineTest {
    /** The head of a summary as Temurin 25's jcmd prints it. */
    private static final String SUMMARY = """
            12345:

            Native Memory Tracking:

            (Omitting categories weighting less than 1KB)

            Total: reserved=1618366KB, committed=92982KB
                   mmap:   reserved=1604112KB, committed=78728KB

            -                 Java Heap (reserved=184320KB, committed=18168KB)
                                        (mmap: reserved=184320KB, committed=18168KB, at peak)

            -                     Class (reserved=1049138KB, committed=7154KB)
                                        (classes #6876)
            -                      Code (reserved=250316KB, committed=12108KB)
            -        Shared class space (reserved=16384KB, committed=14660KB, readonly=0KB)
            -                 Metaspace (reserved=65646KB, committed=25966KB)
            """;

    @Test
    void eachPartIsItsCommittedKibAndTheTotalIsKeptToo() {
        var parts = NativeMemoryTimeline.parse(SUMMARY);
        assertThat(parts)
                .containsEntry("Total", 92982L)
                .containsEntry("Java Heap", 18168L)
                .containsEntry("Class", 7154L)
                .containsEntry("Code", 12108L)
                .containsEntry("Shared class space", 14660L)
                .containsEntry("Metaspace", 25966L);
        assertThat(parts).doesNotContainKey("mmap:");
    }
}
