package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Modules;

class OrderedProgressBoundTest {

    @Test
    void oneWriteAtAdmissionIsTheRateAlone() {
        // 100 Kymas of one write each at 10 writes/s: ten whole seconds of admissions, seconds 0 to 9
        OrderedProgressBound bound = new OrderedProgressBound(new double[] {1}, 100, 10, 0, 0);
        assertThat(bound.idealSeconds()).isEqualTo(10.0);
        assertThat(bound.least(60)).hasValueSatisfying(b -> {
            assertThat(b.tnSeconds()).isEqualTo(9);
            assertThat(b.meanReadySeconds()).isCloseTo(4.5, within(1e-6));
        });
    }

    @Test
    void aWriteAtReadyLeavesRoomForTheNextAdmissions() {
        // 20 Kymas writing at admission and 3 s later: 10 at second 0 and 10 at second 1 fill seconds 0, 1, 3 and 4
        OrderedProgressBound bound = new OrderedProgressBound(new double[] {1, 0, 0, 1}, 20, 10, 0, 0);
        assertThat(bound.least(60)).hasValueSatisfying(b -> {
            assertThat(b.tnSeconds()).isEqualTo(4);
            assertThat(b.meanReadySeconds()).isCloseTo(3.5, within(1e-6));
        });
        assertThat(bound.leastMeanAdmission(3)).isEmpty();
    }

    @Test
    void writesAllowedBehindTheirTimeOrOnTheBurstFinishSooner() {
        double[] twoAtAdmission = {2};
        assertThat(new OrderedProgressBound(twoAtAdmission, 10, 10, 0, 0)
                        .least(60)
                        .orElseThrow()
                        .tnSeconds())
                .isEqualTo(1);
        assertThat(new OrderedProgressBound(twoAtAdmission, 10, 10, 0, 1)
                        .least(60)
                        .orElseThrow()
                        .tnSeconds())
                .isZero();
        assertThat(new OrderedProgressBound(twoAtAdmission, 10, 10, 10, 0)
                        .least(60)
                        .orElseThrow()
                        .tnSeconds())
                .isZero();
    }

    @Test
    void noScheduleWithinTheLimitIsEmpty() {
        assertThat(new OrderedProgressBound(new double[] {1}, 1000, 10, 0, 0).least(50))
                .isEmpty();
    }

    @Test
    void theProfileFollowsTheLifecycleAndPutsTheKymasOwnWritesAtReady() {
        double[] profile = OrderedProgressBound.profile(List.of("ory", "istio"), Duration.ofSeconds(1), 14);
        // ory: 0, 0, 1, 4, 7, 10; istio: 0, 0, 1, 6, 11, 16; the Kyma's own two at 16
        assertThat(profile).hasSize(17);
        assertThat(profile[0]).isEqualTo(4);
        assertThat(profile[1]).isEqualTo(2);
        assertThat(profile[4]).isEqualTo(1);
        assertThat(profile[11]).isEqualTo(1);
        assertThat(profile[16]).isEqualTo(3);
        assertThat(Arrays.stream(profile).sum()).isEqualTo(14);
        assertThatThrownBy(() -> OrderedProgressBound.profile(List.of("ory"), Duration.ofSeconds(1), 5))
                .hasMessageContaining("fewer than its components'");
        assertThatThrownBy(() -> OrderedProgressBound.profile(List.of("ory"), Duration.ofMillis(500), 6))
                .hasMessageContaining("whole seconds");
    }

    @Test
    void theEighteenModulesAtTheOrderedProgressLoad() {
        double[] profile = OrderedProgressBound.profile(Modules.EIGHTEEN, Duration.ofSeconds(1), 123.2);
        // 18 components of 6 writes, the Kyma's own 15.2 at its Ready instant, 67 s after admission
        assertThat(profile).hasSize(68);
        assertThat(profile[67]).isCloseTo(15.2 + 1, within(1e-9)); // the longest module's success, and the Kyma's
        OrderedProgressBound onTime = new OrderedProgressBound(profile, 1000, 500, 0, 0);
        assertThat(onTime.idealSeconds()).isCloseTo(246.4, within(1e-9));
        // the client's QPS alone, every transition on time: the end of the burst costs about one lifetime less the
        // mean age of a write, so T(N) cannot get near T*(N)
        OrderedProgressBound.Bound b = onTime.least(400).orElseThrow();
        assertThat(b.tnSeconds()).isGreaterThan(290);
        assertThat(b.meanReadySeconds()).isBetween(0.5 * b.tnSeconds(), 0.7 * b.tnSeconds());
        // slack behind the timetable and the burst only ever shorten it
        assertThat(new OrderedProgressBound(profile, 1000, 500, 500, 0)
                        .least(400)
                        .orElseThrow()
                        .tnSeconds())
                .isLessThan(b.tnSeconds());
        assertThat(new OrderedProgressBound(profile, 1000, 500, 0, 2)
                        .least(400)
                        .orElseThrow()
                        .tnSeconds())
                .isLessThan(b.tnSeconds());
    }

    @Test
    void onTimeOnlyWhereTheModelFitsTheRun() {
        List<String> modules = List.of("ory", "istio");
        assertThat(OrderedProgressBound.onTime(modules, Duration.ofSeconds(1), false, 10, 14, 10, 0, 100))
                .hasValueSatisfying(b -> assertThat(b.tnSeconds()).isBetween(16, 100));
        assertThat(OrderedProgressBound.onTime(modules, Duration.ofSeconds(1), true, 10, 14, 10, 0, 100))
                .isEmpty();
        assertThat(OrderedProgressBound.onTime(modules, Duration.ofMillis(10), false, 10, 14, 10, 0, 100))
                .isEmpty();
        assertThat(OrderedProgressBound.onTime(
                        modules,
                        Duration.ofSeconds(1),
                        false,
                        10,
                        14,
                        10,
                        0,
                        OrderedProgressBound.LONGEST_SOLVED_SECONDS + 1))
                .isEmpty();
        assertThat(OrderedProgressBound.onTime(modules, Duration.ofSeconds(1), false, 10, 14, 0, 0, 100))
                .isEmpty();
    }
}
