package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.Modules;

/** The shipped samples list the same 18 modules, in the same order, as the tests and the benchmark use. */
class SampleModulesTest {
    private static final Path SAMPLES = Crds.repositoryRoot().resolve("samples");

    @Test
    void theSampleKymaHasTheEighteenModules() throws IOException {
        Kyma kyma = Serialization.unmarshal(Files.readString(SAMPLES.resolve("kyma.yaml")), Kyma.class);
        assertThat(kyma.getSpec().getModules()).extracting(Module::getName).isEqualTo(Modules.EIGHTEEN);
    }

    @Test
    void theSampleDataGeneratorCreatesKymasOfTheEighteenModules() throws IOException {
        Matcher m = Pattern.compile("(?m)^MODULES=\"([^\"]*)\"")
                .matcher(Files.readString(SAMPLES.resolve("sample-data.sh")));
        assertThat(m.find()).as("a MODULES=\"...\" line in sample-data.sh").isTrue();
        List<String> modules = Arrays.asList(m.group(1).trim().split("\\s+"));
        assertThat(modules).isEqualTo(Modules.EIGHTEEN);
    }
}
