package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.kyma.operator.flags.HelpRequested;

class BenchOptionsTest {
    @Test
    void helpIsARequestForTheUsageNotAnOptionWithoutItsValue() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--help"})).isInstanceOf(HelpRequested.class);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--n", "10", "-h"}))
                .isInstanceOf(HelpRequested.class);
        assertThat(BenchOptions.USAGE).contains("--help", "--n", "--unit", "--jvm-extra");
    }

    @Test
    void anOptionWithoutItsValueIsStillAnError() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--n"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--n needs a value");
    }

    @Test
    void flagsAfterTheDoubleDashGoToTheOperator() {
        BenchOptions options =
                BenchOptions.parse(new String[] {"--n", "3", "--unit", "50ms", "--jvm-options", "", "--", "--help"});
        assertThat(options.n()).isEqualTo(3);
        assertThat(options.unit()).isEqualTo(Duration.ofMillis(50));
        assertThat(options.operatorFlags()).containsExactly("--help");
    }

    @Test
    void theNoisyNeighbourScenarioIsASwitchAndKeepsTheOperatorFlags() {
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", ""}).noisyNeighbour())
                .isFalse();
        BenchOptions noisy = BenchOptions.parse(
                new String[] {"--noisy-neighbour", "--jvm-options", "", "--", "--k8s-client-qps", "200"});
        assertThat(noisy.noisyNeighbour()).isTrue();
        assertThat(noisy.withOperatorFlags("--remote-server-url", "http://127.0.0.1:1")
                        .operatorFlags())
                .containsExactly("--k8s-client-qps", "200", "--remote-server-url", "http://127.0.0.1:1");
    }

    @Test
    void profileAndHeapDumpAreSwitchesOffByDefault() {
        BenchOptions plain = BenchOptions.parse(new String[] {"--jvm-options", ""});
        assertThat(plain.profile()).isFalse();
        assertThat(plain.heapDump()).isFalse();
        BenchOptions both = BenchOptions.parse(new String[] {"--profile", "--heap-dump", "--jvm-options", ""});
        assertThat(both.profile()).isTrue();
        assertThat(both.heapDump()).isTrue();
    }

    @Test
    void anArrivalRateIsKymasASecondOrAShareOfWhatTheCeilingAllows() {
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", ""}).arrivalRate())
                .isEmpty();
        BenchOptions.ArrivalRate fixed = BenchOptions.parse(new String[] {"--jvm-options", "", "--arrival-rate", "2.5"})
                .arrivalRate()
                .orElseThrow();
        assertThat(fixed.perSecond(600, 120)).isEqualTo(2.5);
        BenchOptions.ArrivalRate share = BenchOptions.parse(new String[] {"--jvm-options", "", "--arrival-rate", "80%"})
                .arrivalRate()
                .orElseThrow();
        assertThat(share.perSecond(600, 120)).isEqualTo(4.0);
        assertThatThrownBy(() -> BenchOptions.ArrivalRate.parse("0")).hasMessageContaining("must be above 0");
        assertThatThrownBy(() -> BenchOptions.ArrivalRate.parse("-5%")).hasMessageContaining("must be above 0");
    }

    @Test
    void shardsStartThatManyReplicasAndRefuseWhatMeasuresOneProcess() {
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", ""}).shards())
                .isEqualTo(1);
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", "", "--shards", "3"})
                        .shards())
                .isEqualTo(3);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--jvm-options", "", "--shards", "0"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("for --shards: must be at least 1");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--jvm-options", "", "--", "--shards", "3"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the bench's --shards");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--jvm-options", "", "--shards", "2", "--profile"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one operator");
        assertThatThrownBy(() -> BenchOptions.parse(
                        new String[] {"--jvm-options", "-XX:NativeMemoryTracking=summary", "--shards", "2"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one operator process");
        assertThat(BenchOptions.USAGE).contains("--shards");
    }

    @Test
    void theOperatorRunsAtTheControlPlanesPriorityUnlessToldOtherwise() {
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", ""}).operatorNice())
                .isZero();
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", "", "--operator-nice", "10"})
                        .operatorNice())
                .isEqualTo(10);
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--jvm-options", "", "--operator-nice", "-5"}))
                .hasMessage("invalid value '-5' for --operator-nice: must be at least 0, got -5");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--jvm-options", "", "--operator-nice", "20"}))
                .hasMessageContaining("--operator-nice");
    }

    @Test
    void theReleasesApiServerUnlessAnotherWatchBufferIsAskedFor() {
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", ""}).apiserverWatchBuffer())
                .isZero();
        assertThat(BenchOptions.parse(new String[] {"--jvm-options", "", "--apiserver-watch-buffer", "100"})
                        .apiserverWatchBuffer())
                .isEqualTo(100);
        assertThatThrownBy(
                        () -> BenchOptions.parse(new String[] {"--jvm-options", "", "--apiserver-watch-buffer", "10"}))
                .hasMessage("invalid value '10' for --apiserver-watch-buffer: must be 0 or from 11 to 1000, got 10");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {
                    "--jvm-options", "", "--apiserver-watch-buffer", "100", "--kubeconfig", "kubeconfig"
                }))
                .hasMessageContaining("not with --kubeconfig");
        assertThat(BenchOptions.USAGE).contains("--apiserver-watch-buffer");
    }
}
