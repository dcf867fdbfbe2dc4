package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.run.JobCalls;
import io.kyma.operator.testing.Crds;

/** The answer budget that docs/reliability.md states is the one the shipped Deployment gets. */
class AnswerBudgetDocTest {
    @Test
    void theDocsStateTheCallsInFlightOfTheShippedDeployment() throws IOException {
        Path root = Crds.repositoryRoot();
        String deployment = Files.readString(root.resolve("config/manager/manager.yaml"));
        Matcher percent = Pattern.compile("-XX:MaxRAMPercentage=([0-9]+)").matcher(deployment);
        Matcher limit = Pattern.compile("limits:\\s*\\n(?:\\s+cpu: \\S+\\n)?\\s+memory: ([0-9]+)Mi")
                .matcher(deployment);
        assertThat(percent.find()).isTrue();
        assertThat(limit.find()).as("the memory limit").isTrue();
        long heap = Long.parseLong(limit.group(1)) * (1 << 20) * Long.parseLong(percent.group(1)) / 100;
        ManagerConfig defaults = ManagerConfig.parse(new String[0], Map.of());
        int inFlight = JobCalls.inFlightFor(
                heap / 8, defaults.jobs().responseLimit(), defaults.jobs().maxInFlight());
        String docs = Files.readString(root.resolve("docs/reliability.md")).replaceAll("\\s+", " ");
        assertThat(docs)
                .contains(String.format(
                        "about %d MiB, %.1f MiB, which %d calls of %d KiB fill, so %d are in" + " flight at most",
                        heap >> 20,
                        heap / 8.0 / (1 << 20),
                        inFlight,
                        defaults.jobs().responseLimit() >> 10,
                        inFlight));
    }
}
