package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;

/** What the Run controller makes of a spec: the plan it carries out, or why it cannot. */
class RunPlanTest {
    private static final RunSettings SETTINGS = new RunSettings(
            Optional.of(JobServerUrl.parse("http://default:9090")),
            Duration.ofSeconds(5),
            Duration.ofMinutes(5),
            ServerAllowList.parse("*.allowed.example,127.0.0.1"),
            Duration.ZERO);

    @Test
    void usesTheDefaultsWhereTheSpecIsSilent() throws RunPlan.Invalid {
        RunPlan plan = RunPlan.of(run(null, null, null), SETTINGS);
        assertThat(plan.server()).hasToString("http://default:9090");
        assertThat(plan.pollInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(plan.timeout()).isEmpty();
    }

    @Test
    void aParameterNameLongerThanTheSchemaCanBoundIsAnInvalidSpec() {
        Run run = run(null, null, null);
        run.getSpec().getJob().getParams().put("p".repeat(254), "v");
        assertThatThrownBy(() -> RunPlan.of(run, SETTINGS)).isInstanceOfSatisfying(RunPlan.Invalid.class, e -> {
            assertThat(e.reason()).isEqualTo("InvalidSpec");
            assertThat(e.getMessage()).startsWith("spec.job.params: a parameter name is longer than 253");
        });
    }

    @Test
    void parametersThatEncodeBeyondWhatAStartMaySendAreAnInvalidSpec() {
        Run run = run(null, null, null);
        for (int i = 0; i < 22; i++) {
            run.getSpec().getJob().getParams().put("p" + i, "\u0001".repeat(4096)); // six bytes each once encoded
        }
        assertThatThrownBy(() -> RunPlan.of(run, SETTINGS)).isInstanceOfSatisfying(RunPlan.Invalid.class, e -> {
            assertThat(e.reason()).isEqualTo("InvalidSpec");
            assertThat(e.getMessage())
                    .isEqualTo("spec.job.params: 528 KiB once encoded for the job service, more than"
                            + " the 512 KiB a start may send");
        });
        run.getSpec().getJob().getParams().clear();
        for (int i = 0; i < 64; i++) {
            run.getSpec().getJob().getParams().put("p".repeat(60) + i, "v".repeat(4096)); // the schema's most, plain
        }
        assertThat(StartBody.encode("build", run.getSpec().getJob().getParams(), "uid").length)
                .isLessThan(StartBody.MAX_BYTES);
    }

    @Test
    void raisesPollIntervalsBelowTheFloor() throws RunPlan.Invalid {
        assertThat(RunPlan.of(run("http://a.allowed.example", "0s", "1m"), SETTINGS)
                        .pollInterval())
                .isEqualTo(RunPlan.MIN_POLL);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "http://127.0.0.1:99999|-|-|InvalidServer|spec.server: the port must be between 1 and 65535",
                "http://a.allowed.example/%zz|-|-|InvalidServer|spec.server: not a valid URL",
                "http://127.0.0.2|-|-|ServerNotAllowed|spec.server: the host 127.0.0.2 is not allowed",
                "-|99999999999999h|-|InvalidSpec|spec.pollInterval: '99999999999999h' is longer than the longest duration",
                "-|-|9999999999h|InvalidSpec|spec.timeout: '9999999999h' is longer than the longest duration"
            })
    void aSpecItCannotCarryOutIsInvalidWithAReasonAndTheField(
            String server, String poll, String timeout, String reason, String message) {
        assertThatThrownBy(() -> RunPlan.of(run(server, poll, timeout), SETTINGS))
                .isInstanceOfSatisfying(RunPlan.Invalid.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.getMessage()).contains(message);
                });
    }

    @Test
    void withoutAnyServerTheRunCannotStart() {
        RunSettings none = new RunSettings(
                Optional.empty(),
                Duration.ofSeconds(5),
                Duration.ofMinutes(5),
                ServerAllowList.parse(""),
                Duration.ZERO);
        assertThatThrownBy(() -> RunPlan.of(run(null, null, null), none))
                .isInstanceOfSatisfying(
                        RunPlan.Invalid.class, e -> assertThat(e.reason()).isEqualTo("NoServer"));
    }

    private static Run run(String server, String poll, String timeout) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("r")
                .withNamespace("ns")
                .withGeneration(1L)
                .build());
        run.setSpec(new RunSpec());
        run.getSpec().setServer(server);
        run.getSpec().setPollInterval(poll);
        run.getSpec().setTimeout(timeout);
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName("build");
        return run;
    }
}
