package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.manager.Samples;

/**
 * The load of a fault scenario: Kymas of the 18 modules and Runs on the job service, at a short transition unit, the
 * same for the run without faults and the run with them. {@code make chaos} runs the full size; the short version is
 * what {@code make test} runs.
 *
 * @param jobSeconds how long each Run's job runs
 */
public record ChaosLoad(int kymas, int runs, Duration unit, int jobSeconds) {
    /** Whether this JVM runs the full scenarios ({@code -Dchaos.full=true}, set by {@code make chaos}). */
    public static boolean full() {
        return Boolean.getBoolean("chaos.full");
    }

    /** The load, 50 Kymas and 50 Runs, when full; else a sixth of it. */
    public static ChaosLoad standard(Duration unit, int jobSeconds) {
        return full() ? new ChaosLoad(50, 50, unit, jobSeconds) : new ChaosLoad(6, 6, unit, jobSeconds);
    }

    /** Components in the load. */
    public int components() {
        return kymas * Samples.MODULES.size();
    }

    /** The flags every operator of a scenario runs with. */
    public List<String> operatorFlags(String jobServerUrl) {
        return List.of(
                "--transition-unit",
                GoDuration.format(unit),
                "--remote-server-url",
                jobServerUrl,
                "--failure-base-delay",
                "200ms");
    }

    public void create(KubernetesClient admin, String namespace) {
        for (int i = 0; i < kymas; i++) {
            admin.resource(Samples.kyma(namespace, "k" + i, Samples.MODULES)).create();
        }
        for (int i = 0; i < runs; i++) {
            admin.resource(Samples.run(
                            namespace,
                            "r" + i,
                            "build",
                            Map.of("durationSeconds", Integer.toString(jobSeconds)),
                            "200ms",
                            null))
                    .create();
        }
    }
}
