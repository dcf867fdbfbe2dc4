package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

class HeapReturnerTest {
    @Test
    void onlyCollectorsOfTheWholeHeapCountAsTheFullCollectionAskedFor() {
        // the management names of HotSpot's collectors: serial, parallel, G1, ZGC, Shenandoah
        assertThat(HeapReturner.collectsWholeHeap("Copy")).isFalse();
        assertThat(HeapReturner.collectsWholeHeap("MarkSweepCompact")).isTrue();
        assertThat(HeapReturner.collectsWholeHeap("PS Scavenge")).isFalse();
        assertThat(HeapReturner.collectsWholeHeap("PS MarkSweep")).isTrue();
        assertThat(HeapReturner.collectsWholeHeap("G1 Young Generation")).isFalse();
        assertThat(HeapReturner.collectsWholeHeap("G1 Old Generation")).isTrue();
        assertThat(HeapReturner.collectsWholeHeap("G1 Concurrent GC")).isFalse();
        assertThat(HeapReturner.collectsWholeHeap("ZGC Minor Cycles")).isFalse();
        assertThat(HeapReturner.collectsWholeHeap("ZGC Major Cycles")).isTrue();
        assertThat(HeapReturner.collectsWholeHeap("Shenandoah Cycles")).isTrue();
    }

    @Test
    void thisJvmHasACollectorOfTheWholeHeap() {
        assertThat(ManagementFactory.getGarbageCollectorMXBeans())
                .extracting(GarbageCollectorMXBean::getName)
                .anyMatch(HeapReturner::collectsWholeHeap);
    }
}
