package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.common.LeanCache;

/** What the informer cache keeps of a Run. */
class RunFormTest {
    @Test
    void anEndedRunKeepsNoLogInTheCacheARunningOneKeepsItsTail() {
        Run running = run(RunPhase.UNKNOWN);
        Run ended = run(RunPhase.SUCCEEDED);
        assertThat(LeanCache.lean(new RunForm(), running).getStatus().getLogs()).isEqualTo("line\n");
        Run kept = LeanCache.lean(new RunForm(), ended);
        assertThat(kept.getStatus().getLogs()).isNull();
        assertThat(kept.getStatus().getPhase()).isEqualTo(RunPhase.SUCCEEDED);
        assertThat(kept.getStatus().getRemoteId()).isEqualTo("job-1");
    }

    private static Run run(RunPhase phase) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder().withName("r").withNamespace("ns").withUid("u").build());
        run.setStatus(new RunStatus());
        run.getStatus().setPhase(phase);
        run.getStatus().setRemoteId("job-1");
        run.getStatus().setLogs("line\n");
        return run;
    }
}
