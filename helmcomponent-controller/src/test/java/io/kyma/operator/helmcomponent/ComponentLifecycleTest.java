package io.kyma.operator.helmcomponent;

import static io.kyma.operator.api.ComponentState.FAILING;
import static io.kyma.operator.api.ComponentState.PENDING;
import static io.kyma.operator.api.ComponentState.RETRYING;
import static io.kyma.operator.api.ComponentState.STARTED;
import static io.kyma.operator.api.ComponentState.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.kyma.operator.api.ComponentState;

class ComponentLifecycleTest {
    private static final Duration UNIT = Duration.ofSeconds(1);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final ComponentLifecycle lifecycle = new ComponentLifecycle(UNIT);

    @Test
    void newComponentIsPendingAtOnceAndWaitsOneUnit() {
        var step = lifecycle.next(null, null, "istio", T0);
        assertThat(step.enter()).contains(PENDING);
        assertThat(step.delay()).contains(UNIT);
    }

    @Test
    void walksEveryStateInOrderWithTheDocumentedDwell() {
        // "istio" has 5 characters: pending 1 s, started/failing/retrying 5 s each, success at 16 s.
        List<ComponentState> visited = new ArrayList<>();
        List<Duration> dwells = new ArrayList<>();
        ComponentState state = null;
        Instant since = null;
        Instant now = T0;
        for (int i = 0; i < 10; i++) {
            var step = lifecycle.next(state, since, "istio", now);
            if (step.enter().isPresent()) {
                if (state != null) {
                    dwells.add(Duration.between(since, now));
                }
                state = step.enter().get();
                since = now;
                visited.add(state);
            }
            if (step.delay().isEmpty()) {
                break;
            }
            now = now.plus(step.delay().get());
        }
        assertThat(visited).containsExactly(PENDING, STARTED, FAILING, RETRYING, SUCCESS);
        assertThat(dwells)
                .containsExactly(
                        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(Duration.between(T0, since))
                .isEqualTo(lifecycle.timeToSuccess("istio"))
                .isEqualTo(Duration.ofSeconds(16));
    }

    @Test
    void anEarlyWakeUpWaitsForTheRemainder() {
        var step = lifecycle.next(STARTED, T0, "istio", T0.plusMillis(4_200));
        assertThat(step.enter()).isEmpty();
        assertThat(step.delay()).contains(Duration.ofMillis(800));
    }

    @Test
    void aLateWakeUpMovesExactlyOneStateAndWaitsTheFullDwellOfTheNext() {
        // The operator was down for an hour: failing is long overdue, yet only retrying is entered.
        var step = lifecycle.next(FAILING, T0, "istio", T0.plus(Duration.ofHours(1)));
        assertThat(step.enter()).contains(RETRYING);
        assertThat(step.delay()).contains(Duration.ofSeconds(5));
    }

    @ParameterizedTest
    @EnumSource(
            value = ComponentState.class,
            names = {"PENDING", "STARTED", "FAILING", "RETRYING"})
    void restartAfterEachStateContinuesWithTheFollowingOne(ComponentState stoppedIn) {
        Duration dwell = lifecycle.dwell(stoppedIn, "logging").orElseThrow();
        var justBefore = lifecycle.next(stoppedIn, T0, "logging", T0.plus(dwell).minusMillis(1));
        assertThat(justBefore.enter()).isEmpty();
        assertThat(justBefore.delay()).contains(Duration.ofMillis(1));

        var atDue = lifecycle.next(stoppedIn, T0, "logging", T0.plus(dwell));
        assertThat(atDue.enter()).contains(ComponentState.values()[stoppedIn.ordinal() + 1]);
    }

    @Test
    void successIsFinal() {
        var step = lifecycle.next(SUCCESS, T0, "istio", T0.plus(Duration.ofDays(1)));
        assertThat(step.enter()).isEmpty();
        assertThat(step.delay()).isEmpty();
    }

    @Test
    void unknownTransitionTimeCountsAsDue() {
        assertThat(lifecycle.next(PENDING, null, "istio", T0).enter()).contains(STARTED);
    }

    @Test
    void dwellScalesWithTheModuleNameAndTheUnit() {
        var fast = new ComponentLifecycle(Duration.ofMillis(10));
        assertThat(fast.dwell(RETRYING, "application-connector")).contains(Duration.ofMillis(210));
        assertThat(fast.dwell(SUCCESS, "application-connector")).isEqualTo(Optional.empty());
        assertThat(lifecycle.timeToSuccess("service-catalog-addons")).isEqualTo(Duration.ofSeconds(67));
    }

    @Test
    void rejectsANonPositiveUnit() {
        assertThatThrownBy(() -> new ComponentLifecycle(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
