package io.kyma.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl against the embedded control plane, as a user would type it. */
public final class Kubectl {
    /** What kubectl answered: its exit code and its standard output and error together. */
    public record Answer(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private static Path kubeconfig;

    private Kubectl() {}

    /** A kubeconfig file for the embedded control plane, written once per test JVM. */
    public static synchronized Path kubeconfig() throws IOException {
        if (kubeconfig == null) {
            kubeconfig = Files.createTempFile("kubectl-", ".kubeconfig");
            kubeconfig.toFile().deleteOnExit();
            Files.writeString(kubeconfig, EmbeddedControlPlane.get().kubeconfigYaml());
        }
        return kubeconfig;
    }

    /** Runs {@code kubectl args} and returns its output; fails the test with kubectl's own words if it fails. */
    public static String ok(String... args) {
        Answer answer = run(args);
        assertThat(answer.ok())
                .as("kubectl %s:%n%s", String.join(" ", args), answer.output())
                .isTrue();
        return answer.output();
    }

    /** Runs {@code kubectl args} and waits at most two minutes for it. */
    public static Answer run(String... args) {
        try {
            List<String> command = new ArrayList<>(
                    List.of("kubectl", "--kubeconfig", kubeconfig().toString()));
            command.addAll(List.of(args));
            Path output = Files.createTempFile("kubectl-", ".out");
            try {
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                boolean ended = process.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);
                if (!ended) {
                    process.destroyForcibly().waitFor();
                }
                String out = Files.readString(output, StandardCharsets.UTF_8);
                return ended
                        ? new Answer(process.exitValue(), out)
                        : new Answer(-1, out + "\n(kubectl did not end within two minutes)");
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
