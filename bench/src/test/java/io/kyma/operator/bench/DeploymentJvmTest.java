package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The benchmark runs the operator with the shipped Deployment's JVM settings unless told otherwise. */
class DeploymentJvmTest {
    private static final String MANIFEST = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: x
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: m
            spec:
              template:
                spec:
                  containers:
                    - name: manager
                      env:
                        - name: JAVA_TOOL_OPTIONS
                          value: "-XX:MaxRAMPercentage=50  -XX:+UseSerialGC -XX:+UseCompactObjectHeaders"
                        - name: MALLOC_ARENA_MAX
                          value: "2"
                        - name: POD_NAME
                          valueFrom:
                            fieldRef:
                              fieldPath: metadata.name
                      resources:
                        limits:
                          memory: 320Mi
            """;

    @Test
    void theFlagsAreTheContainersWithItsMemoryLimitMadeExplicit() {
        DeploymentJvm jvm = DeploymentJvm.of(MANIFEST);
        assertThat(jvm.jvmOptions())
                .containsExactly(
                        "-XX:MaxRAM=335544320",
                        "-XX:MaxRAMPercentage=50",
                        "-XX:+UseSerialGC",
                        "-XX:+UseCompactObjectHeaders");
        assertThat(jvm.environment()).isEqualTo(Map.of("MALLOC_ARENA_MAX", "2"));
        assertThat(jvm.flagsFor(17))
                .doesNotContain("-XX:+UseCompactObjectHeaders")
                .contains("-XX:+UseSerialGC");
        assertThat(jvm.flagsFor(25)).contains("-XX:+UseCompactObjectHeaders");
    }

    @Test
    void theShippedManifestHasTheSettings() {
        DeploymentJvm jvm = DeploymentJvm.read(Path.of("..").toAbsolutePath().normalize());
        assertThat(jvm.jvmOptions()).anyMatch(f -> f.startsWith("-XX:MaxRAM=")).contains("-XX:+UseSerialGC");
    }
}
