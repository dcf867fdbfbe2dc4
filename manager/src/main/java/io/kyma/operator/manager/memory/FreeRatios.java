package io.kyma.operator.manager.memory;

import java.util.Optional;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heap's free ratios ({@code -XX:MinHeapFreeRatio}, {@code -XX:MaxHeapFreeRatio}), which HotSpot lets a running
 * JVM change, narrowed while the heap is returned and put back after. A full collection of the serial collector
 * shrinks the old generation to the live data and {@code MaxHeapFreeRatio} of room: with the Deployment's 40 % its old
 * generation stayed two thirds above the live data, and with the young generation on top a return after a burst
 * kept 61 MiB of heap for 29 MiB of live data at N = 1000 ({@code against-go/n1000-ceiling}). During the burst the
 * ratios stay as set, so that the old generation is not shrunk at each of the ceiling's collections and grown again
 * by the next promotions.
 *
 * <p>The flags belong to the whole JVM: one instance serves every manager in it ({@link #ofThisJvm()}), one narrowing
 * at a time, and each puts back the ratios the first one found.
 */
final class FreeRatios {
    static final String MIN = "MinHeapFreeRatio";
    static final String MAX = "MaxHeapFreeRatio";

    private static final Logger LOG = LoggerFactory.getLogger(FreeRatios.class);

    /** Reads and writes the JVM's flags; the JVM refuses a minimum above the maximum. */
    interface Flags {
        int get(String name);

        void set(String name, int value);
    }

    private static final Optional<FreeRatios> THIS_JVM = create();

    private final Flags flags;
    /**
     * The ratios before the first narrowing, {@code {min, max}}; what every narrowing puts back, so that one whose
     * restore the JVM refused is not taken for the ratios to keep. A change made by hand in between is undone too.
     */
    private int[] original;

    FreeRatios(Flags flags) {
        this.flags = flags;
    }

    /** The running JVM's ratios, or empty where it has no diagnostic bean to set them with. */
    static Optional<FreeRatios> ofThisJvm() {
        return THIS_JVM;
    }

    private static Optional<FreeRatios> create() {
        return VmOptions.hotSpot()
                .map(vm -> new FreeRatios(new Flags() {
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
     * Runs {@code work} with the maximum free ratio lowered to {@code maxFree} (and the minimum with it where it was
     * higher), then puts back what it changed; changes nothing where the maximum is already that low or the JVM
     * refuses the change. One narrowing at a time: the flags belong to the whole JVM.
     *
     * @return what {@code work} returned
     */
    synchronized <T> T whileNarrowed(int maxFree, Supplier<T> work) {
        try {
            if (original == null) {
                original = new int[] {flags.get(MIN), flags.get(MAX)};
            }
        } catch (RuntimeException e) {
            LOG.debug("Heap free ratios not readable; the return keeps them", e);
            return work.get();
        }
        int min = original[0];
        int max = original[1];
        if (max <= maxFree) {
            return work.get();
        }
        boolean minNarrowed = false;
        try {
            // the minimum first and back last, so that it is never above the maximum
            if (min > maxFree) {
                flags.set(MIN, maxFree);
                minNarrowed = true;
            }
            flags.set(MAX, maxFree);
        } catch (RuntimeException e) {
            LOG.warn("Heap free ratios not settable; the return keeps {} % free", max, e);
            if (minNarrowed) {
                put(MIN, min);
            }
            return work.get();
        }
        try {
            return work.get();
        } finally {
            put(MAX, max);
            if (minNarrowed) {
                put(MIN, min); // refused as well if the maximum was: the JVM keeps the minimum under it
            }
        }
    }

    private void put(String name, int value) {
        try {
            flags.set(name, value);
        } catch (RuntimeException e) {
            LOG.warn("Heap free ratio {} not restored to {} %", name, value, e);
        }
    }
}
