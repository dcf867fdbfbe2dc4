package io.kyma.operator.manager.memory;

import java.lang.management.ManagementFactory;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * The heap's free ratios ({@code -XX:MinHeapFreeRatio}, {@code -XX:MaxHeapFreeRatio}), which HotSpot lets a running
 * JVM change, narrowed while the heap is returned and put back after. A full collection of the serial collector
 * shrinks the old generation to the live data and {@code MaxHeapFreeRatio} of room: with the Deployment's 40 % a
 * return after a burst kept two thirds more heap than the live data (61 MiB for 29 MiB at N = 1000,
 * {@code against-go/n1000-ceiling}). During the burst the ratios stay as set, so that the old generation is not
 * shrunk at each of the ceiling's collections and grown again by the next promotions.
 */
final class FreeRatios {
    /** The largest free share of the old generation a return leaves, in percent. */
    static final int RETURN_MAX_FREE = 10;

    static final String MIN = "MinHeapFreeRatio";
    static final String MAX = "MaxHeapFreeRatio";

    private static final Logger LOG = LoggerFactory.getLogger(FreeRatios.class);

    /** Reads and writes the JVM's flags; the JVM refuses a minimum above the maximum. */
    interface Flags {
        int get(String name);

        void set(String name, int value);
    }

    /** Puts the ratios back as they were. */
    interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    private final Flags flags;

    FreeRatios(Flags flags) {
        this.flags = flags;
    }

    /** The running JVM's ratios, or empty where it has no diagnostic bean to set them with. */
    static Optional<FreeRatios> ofThisJvm() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (vm == null) {
            return Optional.empty();
        }
        return Optional.of(new FreeRatios(new Flags() {
            @Override
            public int get(String name) {
                return Integer.parseInt(vm.getVMOption(name).getValue());
            }

            @Override
            public void set(String name, int value) {
                vm.setVMOption(name, Integer.toString(value));
            }
        }));
    }

    /**
     * Lowers the maximum free ratio to {@code maxFree} (and the minimum with it where it was higher) until the returned
     * handle is closed; changes nothing where the maximum is already that low or the JVM refuses the change.
     */
    Restore narrow(int maxFree) {
        int min;
        int max;
        try {
            min = flags.get(MIN);
            max = flags.get(MAX);
        } catch (RuntimeException e) {
            LOG.debug("Heap free ratios not readable; the return keeps them", e);
            return () -> {};
        }
        if (max <= maxFree) {
            return () -> {};
        }
        int narrowedMin = Math.min(min, maxFree);
        try {
            // the minimum first and back last, so that it is never above the maximum
            flags.set(MIN, narrowedMin);
            flags.set(MAX, maxFree);
        } catch (RuntimeException e) {
            LOG.warn("Heap free ratios not settable; the return keeps {} % free", max, e);
            restore(min, max);
            return () -> {};
        }
        return () -> restore(min, max);
    }

    private void restore(int min, int max) {
        try {
            flags.set(MAX, max);
            flags.set(MIN, min);
        } catch (RuntimeException e) {
            LOG.warn("Heap free ratios not restored to {} and {} %", min, max, e);
        }
    }
}
