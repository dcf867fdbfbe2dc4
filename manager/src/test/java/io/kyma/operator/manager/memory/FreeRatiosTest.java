package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.kyma.operator.testing.HangCatcher;

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
        Map<String, Integer> during = new FreeRatios(flags).whileNarrowed(10, () -> new TreeMap<>(flags.values));
        assertThat(during).containsEntry(FreeRatios.MIN, 10).containsEntry(FreeRatios.MAX, 10);
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
        assertThat(flags.changes)
                .containsExactly(
                        "MinHeapFreeRatio=10", "MaxHeapFreeRatio=10", "MaxHeapFreeRatio=40", "MinHeapFreeRatio=20");
    }

    @Test
    void aMinimumAlreadyBelowIsLeftAlone() {
        FakeFlags flags = new FakeFlags(0, 70);
        Map<String, Integer> during = new FreeRatios(flags).whileNarrowed(10, () -> new TreeMap<>(flags.values));
        assertThat(during).containsEntry(FreeRatios.MIN, 0).containsEntry(FreeRatios.MAX, 10);
        assertThat(flags.changes).containsExactly("MaxHeapFreeRatio=10", "MaxHeapFreeRatio=70");
    }

    @Test
    void aMaximumAlreadyAsLowIsNotTouched() {
        FakeFlags flags = new FakeFlags(5, 10);
        assertThat(new FreeRatios(flags).whileNarrowed(10, () -> "collected")).isEqualTo("collected");
        assertThat(flags.changes).isEmpty();
    }

    @Test
    void aJvmThatRefusesTheMaximumGetsItsMinimumBack() {
        FakeFlags flags = new FakeFlags(20, 40);
        flags.refuse = FreeRatios.MAX;
        Map<String, Integer> during = new FreeRatios(flags).whileNarrowed(10, () -> new TreeMap<>(flags.values));
        assertThat(during).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
        assertThat(flags.changes).containsExactly("MinHeapFreeRatio=10", "MinHeapFreeRatio=20");
    }

    @Test
    void everyNarrowingPutsBackTheRatiosTheFirstOneFound() {
        FakeFlags flags = new FakeFlags(20, 40);
        FreeRatios ratios = new FreeRatios(flags);
        // the restore fails: the ratios stay narrowed
        ratios.whileNarrowed(10, () -> flags.refuse = FreeRatios.MAX);
        assertThat(flags.values).containsEntry(FreeRatios.MAX, 10);
        flags.refuse = null;
        assertThat(ratios.whileNarrowed(10, () -> flags.values.get(FreeRatios.MAX)))
                .isEqualTo(10);
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
    }

    @Test
    void aNarrowingOnAnotherThreadWaitsUntilTheRatiosAreBack() throws Exception {
        FakeFlags flags = new FakeFlags(20, 40);
        FreeRatios ratios = new FreeRatios(flags);
        CompletableFuture<List<String>> second = new CompletableFuture<>();
        Thread other = new Thread(() -> second.complete(ratios.whileNarrowed(10, () -> List.copyOf(flags.changes))));
        ratios.whileNarrowed(10, () -> {
            other.start();
            while (other.getState() != Thread.State.BLOCKED && other.isAlive()) {
                Thread.onSpinWait();
            }
            assertThat(second).isNotDone();
            return null;
        });
        // the second narrowing began after the first had put both ratios back
        assertThat(second.get(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .containsExactly(
                        "MinHeapFreeRatio=10",
                        "MaxHeapFreeRatio=10",
                        "MaxHeapFreeRatio=40",
                        "MinHeapFreeRatio=20",
                        "MinHeapFreeRatio=10",
                        "MaxHeapFreeRatio=10");
        assertThat(flags.values).containsEntry(FreeRatios.MIN, 20).containsEntry(FreeRatios.MAX, 40);
    }

    @Test
    void thisJvmLetsTheRatiosBeNarrowedAndPutBack() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        String min = vm.getVMOption(FreeRatios.MIN).getValue();
        String max = vm.getVMOption(FreeRatios.MAX).getValue();
        String during = FreeRatios.ofThisJvm()
                .orElseThrow()
                .whileNarrowed(10, () -> vm.getVMOption(FreeRatios.MAX).getValue());
        assertThat(during).isEqualTo("10");
        assertThat(vm.getVMOption(FreeRatios.MIN).getValue()).isEqualTo(min);
        assertThat(vm.getVMOption(FreeRatios.MAX).getValue()).isEqualTo(max);
    }
}
