package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrProfileTest {
    /** Two samples as {@code jfr print --events jdk.ExecutionSample} prints them (Temurin 25). */
    private static final String PRINTED = """
            jdk.ExecutionSample {
              startTime = 08:20:37.653 (2026-11-23)
              sampledThread = "ReconcilerExecutor-helmcomponent-117" (javaThreadId = 117)
              state = "STATE_RUNNABLE"
              stackTrace = [
                com.fasterxml.jackson.core.json.UTF8StreamJsonParser.nextToken() line: 750
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal(InputStream) line: 120
                jdk.internal.misc.Unsafe.park(boolean, long)
                io.kyma.operator.helmcomponent.HelmComponentReconciler.reconcile(HelmComponent, Context) line: 80
              ]
            }

            jdk.ExecutionSample {
              startTime = 08:20:37.663 (2026-11-23)
              sampledThread = "ReconcilerExecutor-helmcomponent-3" (javaThreadId = 3)
              state = "STATE_RUNNABLE"
              stackTrace = [
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal(InputStream) line: 118
                io.kyma.operator.helmcomponent.HelmComponentReconciler.reconcile(HelmComponent, Context) line: 80
              ]
            }
            """;

    @Test
    void samplesCountBySelfByTotalAndByThreadPool() {
        JfrProfile profile = JfrProfile.parse(PRINTED);
        assertThat(profile.samples()).isEqualTo(2);
        assertThat(profile.self())
                .containsEntry("com.fasterxml.jackson.core.json.UTF8StreamJsonParser.nextToken", 1)
                .containsEntry("io.fabric8.kubernetes.client.utils.Serialization.unmarshal", 1);
        assertThat(profile.total())
                .containsEntry("io.fabric8.kubernetes.client.utils.Serialization.unmarshal", 2)
                .containsEntry("jdk.internal.misc.Unsafe.park", 1)
                .containsEntry("io.kyma.operator.helmcomponent.HelmComponentReconciler.reconcile", 2);
        assertThat(profile.render(5))
                .contains("by thread (numbers folded)")
                .contains("100.00 %        2  ReconcilerExecutor-helmcomponent-#");
        assertThat(profile.folded(1))
                .contains("ReconcilerExecutor-helmcomponent-#;"
                        + "io.kyma.operator.helmcomponent.HelmComponentReconciler.reconcile;"
                        + "io.fabric8.kubernetes.client.utils.Serialization.unmarshal 1\n");
        assertThat(profile.folded(2))
                .as("rare stacks summed by thread pool")
                .isEqualTo("ReconcilerExecutor-helmcomponent-#;(stacks with fewer than 2 samples) 2\n");
        assertThat(profile.render(10))
                .contains("100.00 %        2  io.fabric8.kubernetes.client")
                .contains(" 50.00 %        1  com.fasterxml.jackson.core");
        assertThat(JfrProfile.packageOf("jdk.internal.net.http.common.SSLTube$DelegateWrapper.onNext"))
                .isEqualTo("jdk.internal.net.http");
        assertThat(JfrProfile.packageOf("java.lang.Thread.run")).isEqualTo("java.lang");
    }
}
