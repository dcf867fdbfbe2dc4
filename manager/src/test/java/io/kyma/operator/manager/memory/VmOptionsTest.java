package io.kyma.operator.manager.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VmOptionsTest {
    @Test
    void thisJvmHonoursSystemGc() {
        // the surefire JVM runs without -XX:+DisableExplicitGC; the flag read says so
        assertThat(VmOptions.hotSpot()).isPresent();
        assertThat(VmOptions.explicitCollectionsIgnored()).isFalse();
    }
}
