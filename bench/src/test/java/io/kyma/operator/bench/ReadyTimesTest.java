package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaStatus;

class ReadyTimesTest {
    @Test
    void eachKymaCountsFromItsOwnCreationToItsReadyConditionInAdmissionOrder() {
        List<Kyma> kymas = new ArrayList<>();
        kymas.add(kyma("kyma-2", "2026-01-01T00:00:01Z", "2026-01-01T00:01:11Z"));
        kymas.add(kyma("kyma-10", "2026-01-01T00:00:01Z", "2026-01-01T00:01:21Z"));
        kymas.add(kyma("kyma-1", "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"));
        kymas.add(kyma("bench-t1", "2025-12-31T23:59:00Z", "2026-01-01T00:00:00Z"));
        kymas.add(kyma("kyma-3", "2026-01-01T00:00:02Z", null));

        ReadyTimes times = ReadyTimes.of(kymas, "bench-t1");
        assertThat(times.kymas()).extracting(ReadyTimes.Entry::name).containsExactly("kyma-1", "kyma-10", "kyma-2");
        assertThat(times.kymas()).extracting(ReadyTimes.Entry::seconds).containsExactly(60.0, 80.0, 70.0);
        assertThat(times.percentile(0.5)).isEqualTo(70.0);
        assertThat(times.percentile(0.99)).isEqualTo(80.0);
        assertThat(times.percentile(0.01)).isEqualTo(60.0);
        assertThat(times.mean()).isEqualTo(70.0);
        assertThat(times.first()).isEqualTo(60.0);
        assertThat(times.meanOfTenth(0))
                .as("of three, the first tenth is the first Kyma")
                .isEqualTo(60.0);
        assertThat(times.meanOfTenth(9)).isEqualTo(70.0);
        assertThat(times.csv())
                .startsWith("order,name,created,ready,seconds\n0,kyma-1,2026-01-01T00:00:00Z,"
                        + "2026-01-01T00:01:00Z,60\n");
        assertThat(ReadyTimes.parse(times.csv())).as("read back from its CSV").isEqualTo(times);
    }

    private static Kyma kyma(String name, String created, String ready) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withCreationTimestamp(created)
                .build());
        kyma.setStatus(new KymaStatus());
        kyma.getStatus()
                .setConditions(
                        ready == null
                                ? List.of()
                                : List.of(new ConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("True")
                                        .withLastTransitionTime(ready)
                                        .build()));
        return kyma;
    }
}
