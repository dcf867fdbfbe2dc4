package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;

/** The runtime stays small: no class of the manager over 250 lines, the manager itself about 200. */
class ManagerClassSizeTest {
    private static final Path MAIN = Crds.repositoryRoot().resolve("manager/src/main/java");

    @Test
    void noClassOfTheManagerIsOver250Lines() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<String> large = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> lines(f) > 250)
                    .map(f -> MAIN.relativize(f) + " (" + lines(f) + " lines)")
                    .toList();
            assertThat(large).isEmpty();
        }
    }

    @Test
    void theManagerItselfIsAbout200Lines() {
        assertThat(lines(MAIN.resolve("io/kyma/operator/manager/KymaOperator.java")))
                .isLessThanOrEqualTo(215);
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
