package io.kyma.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonThreadsTest {
    @Test
    void threadsAreNamedDaemons() {
        Thread one = DaemonThreads.named("mover").newThread(() -> {});
        assertThat(one.getName()).isEqualTo("mover");
        assertThat(one.isDaemon()).isTrue();
        var numbered = DaemonThreads.numbered("decoder");
        assertThat(numbered.newThread(() -> {}).getName()).isEqualTo("decoder-1");
        Thread second = numbered.newThread(() -> {});
        assertThat(second.getName()).isEqualTo("decoder-2");
        assertThat(second.isDaemon()).isTrue();
    }
}
