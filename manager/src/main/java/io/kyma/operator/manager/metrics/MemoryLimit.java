package io.kyma.operator.manager.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The container's memory limit, from its cgroup (v2's {@code memory.max}, else v1's {@code
 * memory/memory.limit_in_bytes}): what the memory alert compares the resident memory with. Empty without a limit.
 */
public final class MemoryLimit {
    /** cgroup v1 writes "no limit" as the largest page-aligned long, or near it. */
    private static final long UNLIMITED_FROM = 1L << 62;

    private MemoryLimit() {}

    public static OptionalLong of(Path cgroupRoot) {
        OptionalLong v2 = read(cgroupRoot.resolve("memory.max"));
        return v2.isPresent() ? v2 : read(cgroupRoot.resolve("memory/memory.limit_in_bytes"));
    }

    private static OptionalLong read(Path file) {
        try {
            String text = Files.readString(file).trim();
            if (text.equals("max")) {
                return OptionalLong.empty();
            }
            long limit = Long.parseLong(text);
            return limit > 0 && limit < UNLIMITED_FROM ? OptionalLong.of(limit) : OptionalLong.empty();
        } catch (IOException | NumberFormatException | SecurityException e) {
            return OptionalLong.empty();
        }
    }
}
