package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Kubectl;

/** samples/sample-data.sh against a running manager: batches, progress, the wait, and its errors. */
class SampleDataIT {
    private static final Path SCRIPT = Crds.repositoryRoot().resolve("samples/sample-data.sh");

    private record Result(int exit, String output) {}

    @Test
    void createsTheKymasInBatchesAndWaitsUntilAllAreReady() throws Exception {
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            try (RunningManager manager = new RunningManager("sample-data", "--transition-unit", "10ms")) {
                Result result = run("-n", "6", "-b", "2", "-p", "1", "-u", "0.01", "-s", "sample-data");
                assertThat(result.exit()).as(result.output()).isZero();
                assertThat(result.output())
                        .contains("created 3/6 Kymas", "created 6/6 Kymas", "all 6 Kymas Ready in", "slowest: kyma-");
            }
            List<Kyma> kymas = admin.resources(Kyma.class)
                    .inNamespace("sample-data")
                    .list()
                    .getItems();
            assertThat(kymas)
                    .hasSize(6)
                    .allSatisfy(k -> assertThat(k.getSpec().getModules()).hasSize(18));
        }
    }

    @Test
    void missesTheDeadlineWithExitCodeOneWhenNothingReconciles() throws Exception {
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
        }
        Result result = run("-n", "2", "-s", "sample-data-idle", "-d", "3");
        assertThat(result.exit()).as(result.output()).isEqualTo(1);
        assertThat(result.output()).contains("only 0 of 2 Kymas Ready");
    }

    @Test
    void badArgumentsGetTheUsageAndExitCodeTwo() throws Exception {
        for (String[] args : List.of(
                new String[] {"-n", "zero"},
                new String[] {"-n", "2", "-b", "3"},
                new String[] {"-x"},
                new String[] {"-s", "Not_A_Namespace"},
                new String[] {"extra"})) {
            Result result = run(args);
            assertThat(result.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(result.output()).contains("Usage: samples/sample-data.sh");
        }
    }

    private static Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUBECONFIG", Kubectl.kubeconfig().toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        return new Result(process.exitValue(), output);
    }
}
