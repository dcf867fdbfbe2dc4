package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.sun.management.HotSpotDiagnosticMXBean;

class FreeRatiosTest {
    /** The JVM's flags as a map; like the JVM it refuses a minimum above the maximum and counts each change. */
    private static final class FakeFlags implements FreeRatios.Flags {
        final Map<String, Integer> values = new TreeMap<>();
        final List<String> changes = new ArrayList<>();
        /** The flag whose changes the JVM refuses, if any. */
        String refuse;

        FakeFlags(int min, int max) {
            values.put(FreeRatios.MIN, min);
            values.put(FreeRatios.MAX, max);
        }

        @Override
        public int get(String name) {
            return values.get(name);
        }

        @Override
        public void set(String name, int value) {
            if (name.equals(refuse)) {
                throw new IllegalArgumentException("not writeable");
            }
            Map<String, Integer> next = new TreeMap<>(values);
            next.put(name, value);
            if (next.get(FreeRatios.MIN) > next.get(FreeRatios.MAX)) {
                throw new IllegalArgumentException(name + "=" + value + ": minimum above maximum");
            }
            values.putAll(next);
            changes.add(name + "=" + value);
        }
    }

    @Test
    void narrowsTheMaximumAndTheMinimumWithItThenPutsBothBack() {
        FakeFlags flags = new FakeFlags(20, 40);
        try (FreeRatios.Restore restore = new FreeRatios(flags).narrow(10)) {
            assertThat(flags.values).containsEntry(FreeRatios.MIN, 10).containsEntry(FreeRatios.MAX, 10);
        }
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
        assertThat(flags.changes)
                .containsExactly(
                        "MinHeapFreeRatio=10", "MaxHeapFreeRatio=10", "MaxHeapFreeRatio=40", "MinHeapFreeRatio=20");
    }

    @Test
    void aMinimumAlreadyBelowIsLeftAlone() {
        FakeFlags flags = new FakeFlags(0, 70);
        try (FreeRatios.Restore restore = new FreeRatios(flags).narrow(10)) {
            assertThat(flags.values).containsEntry(FreeRatios.MIN, 0).containsEntry(FreeRatios.MAX, 10);
        }
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 0).containsEntry(FreeRatios.MAX, 70);
    }

    @Test
    void aMaximumAlreadyAsLowIsNotTouched() {
        FakeFlags flags = new FakeFlags(5, 10);
        try (FreeRatios.Restore restore = new FreeRatios(flags).narrow(10)) {
            assertThat(flags.changes).isEmpty();
        }
        assertThat(flags.changes).isEmpty();
    }

    @Test
    void aJvmThatRefusesTheMaximumGetsItsMinimumBack() {
        FakeFlags flags = new FakeFlags(20, 40);
        flags.refuse = FreeRatios.MAX;
        try (FreeRatios.Restore restore = new FreeRatios(flags).narrow(10)) {
            assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
        }
        assertThat(flags.changes).containsExactly("MinHeapFreeRatio=10", "MinHeapFreeRatio=20");
    }

    @Test
    void everyNarrowingPutsBackTheRatiosTheFirstOneFound() {
        FakeFlags flags = new FakeFlags(20, 40);
        FreeRatios ratios = new FreeRatios(flags);
        try (FreeRatios.Restore restore = ratios.narrow(10)) {
            // the restore fails: the ratios stay narrowed
            flags.refuse = FreeRatios.MAX;
        }
        assertThat(flags.values).containsEntry(FreeRatios.MAX, 10);
        flags.refuse = null;
        try (FreeRatios.Restore restore = ratios.narrow(10)) {
            assertThat(flags.values).containsEntry(FreeRatios.MAX, 10);
        }
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
    }

    @Test
    void thisJvmLetsTheRatiosBeNarrowedAndPutBack() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        String min = vm.getVMOption(FreeRatios.MIN).getValue();
        String max = vm.getVMOption(FreeRatios.MAX).getValue();
        try (FreeRatios.Restore restore = FreeRatios.ofThisJvm().orElseThrow().narrow(10)) {
            assertThat(vm.getVMOption(FreeRatios.MAX).getValue()).isEqualTo("10");
        }
        assertThat(vm.getVMOption(FreeRatios.MIN).getValue()).isEqualTo(min);
        assertThat(vm.getVMOption(FreeRatios.MAX).getValue()).isEqualTo(max);
    }
}
