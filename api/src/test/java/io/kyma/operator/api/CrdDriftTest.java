package io.kyma.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CRDs committed under config/crd/bases must be exactly what the Java classes generate. */
class CrdDriftTest {
    private static final Path BASES = Path.of("..", "config", "crd", "bases");

    @Test
    void committedCrdsMatchTheModelClasses(@TempDir Path fresh) throws IOException {
        Map<String, File> generated = CrdGenerator.generate(fresh.toFile());
        assertThat(generated)
                .containsOnlyKeys(
                        "kymas.inventory.kyma-project.io",
                        "helmcomponents.inventory.kyma-project.io",
                        "runs.inventory.kyma-project.io");

        for (var entry : generated.entrySet()) {
            Path committed = BASES.resolve(CrdGenerator.basesFileName(entry.getKey()));
            String hint = "config/crd/bases is out of date with the classes in the api module: run `make manifests`"
                    + " and commit the result (" + committed.getFileName() + ")";
            assertThat(committed).as(hint).exists();
            assertThat(Files.readString(committed))
                    .as(hint)
                    .isEqualTo(Files.readString(entry.getValue().toPath()));
        }
        try (var files = Files.list(BASES)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")))
                    .as("CRD files without a model class in config/crd/bases: run `make manifests`")
                    .hasSize(generated.size());
        }
    }
}
