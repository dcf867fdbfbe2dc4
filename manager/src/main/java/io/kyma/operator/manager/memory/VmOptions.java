package io.kyma.operator.manager.memory;

import java.lang.management.ManagementFactory;
import java.util.Optional;

import com.sun.management.HotSpotDiagnosticMXBean;

/** The running JVM's options, read and set through HotSpot's diagnostic bean; none on a JVM without it. */
final class VmOptions {
    private VmOptions() {}

    /** HotSpot's diagnostic bean; empty on a JVM that has none. */
    static Optional<HotSpotDiagnosticMXBean> hotSpot() {
        try {
            return Optional.ofNullable(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the JVM ignores {@code System.gc()} ({@code -XX:+DisableExplicitGC}), read from the flag itself: a count
     * of collections cannot tell, since a concurrent collector answers {@code System.gc()} with a cycle of its own
     * kind and a busy allocator sets off young collections meanwhile.
     */
    static boolean explicitCollectionsIgnored() {
        return hotSpot()
                .map(vm -> {
                    try {
                        return Boolean.parseBoolean(
                                vm.getVMOption("DisableExplicitGC").getValue());
                    } catch (IllegalArgumentException e) {
                        return false; // no such flag: the call is honoured
                    }
                })
                .orElse(false);
    }
}
