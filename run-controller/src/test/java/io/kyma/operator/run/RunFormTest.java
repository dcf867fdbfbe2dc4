package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.cache.LeanCache;

/** What the informer cache keeps of a Run. */
class RunFormTest {
    @Test
    void anEndedRunKeepsNoLogInTheCacheARunningOneKeepsItsTail() {
        Run running = run(RunPhase.RUNNING);
        Run ended = run(RunPhase.SUCCEEDED);
        assertThat(LeanCache.lean(new RunForm(), running).getStatus().getLogs()).isEqualTo("line\n");
        Run kept = LeanCache.lean(new RunForm(), ended);
        assertThat(kept.getStatus().getLogs()).isNull();
        assertThat(kept.getStatus().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
        assertThat(kept.getStatus().getRemoteId()).isEqualTo("job-1");
    }

    @Test
    void paramsAreKeptOnlyWhileTheyMayStillBeSent() {
        Run started = withParams(run(RunPhase.RUNNING));
        assertThat(params(started)).as("its job was started with them").isNull();

        Run pending = withParams(run(null));
        pending.getStatus().setRemoteId(null);
        assertThat(params(pending)).containsEntry("k", "v");

        Run failedBeforeStart = withParams(run(RunPhase.FAILED));
        failedBeforeStart.getStatus().setRemoteId(null);
        failedBeforeStart.getStatus().setObservedGeneration(1L);
        assertThat(params(failedBeforeStart)).as("ended with its spec observed").isNull();

        failedBeforeStart.getMetadata().setGeneration(2L);
        failedBeforeStart.getSpec().getJob().setParams(new HashMap<>(Map.of("k", "v")));
        assertThat(params(failedBeforeStart))
                .as("a new spec, to be planned again")
                .containsEntry("k", "v");
    }

    private static Map<String, String> params(Run run) {
        return LeanCache.lean(new RunForm(), run).getSpec().getJob().getParams();
    }

    private static Run withParams(Run run) {
        run.getMetadata().setGeneration(1L);
        run.setSpec(new RunSpec());
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName("build");
        run.getSpec().getJob().setParams(new HashMap<>(Map.of("k", "v")));
        return run;
    }

    private static Run run(RunPhase phase) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder()
                .withName("r")
                .withNamespace("ns")
                .withUid("u")
                .build());
        run.setStatus(new RunStatus());
        run.getStatus().setPhase(phase);
        run.getStatus().setRemoteId("job-1");
        run.getStatus().setLogs("line\n");
        return run;
    }
}
