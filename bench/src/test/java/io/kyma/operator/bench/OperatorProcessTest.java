package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class OperatorProcessTest {
    private static final String FULL = """
            7761:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         48955        4808224  [B (java.base@17.0.15)
               2:          3790        1537944  [I (java.base@17.0.15)
               3:         42842        1028208  java.lang.String (java.base@17.0.15)
               4:           380          30400  io.kyma.operator.api.HelmComponent
               5:            20           1600  io.fabric8.kubernetes.api.model.ObjectMeta
               6:            21           1008  io.kyma.operator.api.Kyma
            Total        100000        8000000
            """;

    @Test
    void theHistogramKeepsTheTopClassesTheOperatorsOwnAndTheTotal() {
        assertThat(OperatorProcess.histogram(FULL, 2)).isEqualTo("""
                7761:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         48955        4808224  [B (java.base@17.0.15)
                   2:          3790        1537944  [I (java.base@17.0.15)
                   4:           380          30400  io.kyma.operator.api.HelmComponent
                   6:            21           1008  io.kyma.operator.api.Kyma
                Total        100000        8000000
                """);
        assertThat(OperatorProcess.histogram(FULL, 40)).isEqualTo(FULL);
    }

    @Test
    void theLiveHeapIsTheHistogramsTotal() {
        assertThat(OperatorProcess.histogramTotalBytes(FULL)).isEqualTo(8_000_000.0);
        Assertions.assertThatThrownBy(() -> OperatorProcess.histogramTotalBytes("7761:\n"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no total");
    }

    @Test
    void theRssCountsAsSettledOnlyOnceAWholeWindowLiesWithinTheSpread() {
        List<Double> falling = new ArrayList<>();
        for (int i = 0; i < OperatorProcess.SETTLE_WINDOW; i++) {
            falling.add(136.0 - i); // still handing memory back: 1 MiB a second
        }
        assertThat(OperatorProcess.settled(falling)).isEmpty();
        assertThat(OperatorProcess.settled(falling.subList(0, OperatorProcess.SETTLE_WINDOW - 1)))
                .isEmpty();

        List<Double> flat = new ArrayList<>(falling);
        for (int i = 0; i < OperatorProcess.SETTLE_WINDOW; i++) {
            flat.add(118.0 + (i % 2) * 0.5);
        }
        assertThat(OperatorProcess.settled(flat)).hasValue(flat.get(flat.size() - 1));
    }
}
