package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryLimitTest {
    @TempDir
    Path root;

    @Test
    void cgroupV2sLimitIsRead() throws IOException {
        Files.writeString(root.resolve("memory.max"), "402653184\n");
        assertThat(MemoryLimit.of(root)).hasValue(402653184L);
    }

    @Test
    void cgroupV2WithoutALimitHasNone() throws IOException {
        Files.writeString(root.resolve("memory.max"), "max\n");
        assertThat(MemoryLimit.of(root)).isEmpty();
    }

    @Test
    void cgroupV1sLimitIsReadAndItsNoLimitNumberIsNone() throws IOException {
        Files.createDirectories(root.resolve("memory"));
        Files.writeString(root.resolve("memory/memory.limit_in_bytes"), "268435456\n");
        assertThat(MemoryLimit.of(root)).hasValue(268435456L);
        Files.writeString(root.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");
        assertThat(MemoryLimit.of(root)).isEmpty();
    }

    @Test
    void noCgroupOrGarbageIsNoLimit() throws IOException {
        assertThat(MemoryLimit.of(root)).isEmpty();
        Files.writeString(root.resolve("memory.max"), "lots");
        assertThat(MemoryLimit.of(root)).isEmpty();
    }
}
