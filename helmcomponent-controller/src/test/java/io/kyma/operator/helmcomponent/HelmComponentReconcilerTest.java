package io.kyma.operator.helmcomponent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/** What the HelmComponent controller writes and when it looks again, given the status it reads. */
class HelmComponentReconcilerTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final List<HelmComponentStatus> written = new ArrayList<>();
    private final HelmComponentReconciler reconciler = new HelmComponentReconciler(
            clock, Duration.ofSeconds(1), (component, status, context) -> written.add(status), TimerSpread.NONE);

    @Test
    void aNewComponentIsPendingAndLooksAgainAfterOneUnit() {
        UpdateControl<HelmComponent> control = reconcile(component("ory", null, null, 1L));
        assertThat(written).singleElement().satisfies(s -> {
            assertThat(s.getState()).isEqualTo(ComponentState.PENDING);
            assertThat(s.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(s.getObservedGeneration()).isEqualTo(1L);
        });
        assertThat(control.getScheduleDelay()).contains(1000L);
    }

    @Test
    void readyIsFalseWithTheStateAsReasonUntilInstalledAndKeepsItsTimeWhileFalse() {
        reconcile(component("ory", null, null, 1L));
        assertThat(written.get(0).getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Pending");
            assertThat(c.getMessage()).isEqualTo(written.get(0).getMessage());
            assertThat(c.getObservedGeneration()).isEqualTo(1L);
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        });
        HelmComponent pending = component("ory", ComponentState.PENDING, T0, 1L);
        pending.getStatus().setConditions(written.get(0).getConditions());
        clock.advance(Duration.ofSeconds(1));
        reconcile(pending);
        assertThat(written.get(1).getState()).isEqualTo(ComponentState.STARTED);
        assertThat(written.get(1).getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getReason()).isEqualTo("Started");
            assertThat(c.getLastTransitionTime())
                    .as("still False: the time it became False")
                    .isEqualTo("2026-01-01T00:00:00Z");
        });
        HelmComponent retrying = component("ory", ComponentState.RETRYING, T0, 1L);
        retrying.getStatus().setConditions(written.get(1).getConditions());
        clock.advance(Duration.ofHours(1));
        reconcile(retrying);
        assertThat(written.get(2).getState()).isEqualTo(ComponentState.SUCCESS);
        assertThat(written.get(2).getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("Installed");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T01:00:01Z");
        });
    }

    @Test
    void aStateNotYetDueWritesNothingAndWaitsExactlyTheRest() {
        clock.advance(Duration.ofMillis(1200));
        UpdateControl<HelmComponent> control = reconcile(component("ory", ComponentState.STARTED, T0, 1L));
        assertThat(written).isEmpty();
        assertThat(control.getScheduleDelay()).contains(1800L); // 3 units for "ory", 1.2 s gone
    }

    @Test
    void theWaitIsSpreadALittleButNeverShortened() {
        HelmComponentReconciler spreading = new HelmComponentReconciler(
                clock,
                Duration.ofSeconds(1),
                (component, status, context) -> written.add(status),
                new TimerSpread(() -> 0.5));
        clock.advance(Duration.ofMillis(1200));
        HelmComponent component = component("ory", ComponentState.STARTED, T0, 1L);
        UpdateControl<HelmComponent> control = spreading.reconcile(component, new FakeContext<>(component, List.of()));
        assertThat(control.getScheduleDelay()).contains(1818L); // 1.8 s and half of its 2 %
    }

    @Test
    void eachTransitionIsToldHowLateItIsAgainstItsDueTime() {
        List<Duration> late = new ArrayList<>();
        reconciler.recordLatenessWith(late::add);
        reconcile(component("ory", null, null, 1L));
        assertThat(late).as("a new component has no due time").isEmpty();
        clock.advance(Duration.ofMillis(3250)); // "ory" stays 3 s in started
        reconcile(component("ory", ComponentState.STARTED, T0, 1L));
        assertThat(late).containsExactly(Duration.ofMillis(250));
        clock.advance(Duration.ofMillis(-500));
        reconcile(component("ory", ComponentState.STARTED, T0, 1L));
        assertThat(late).as("not due yet: no transition, nothing told").hasSize(1);
    }

    @Test
    void aTransitionTimeAheadOfTheClockCountsFromNowAndSaysSo() {
        Instant farAhead = Instant.parse("+1000000000-12-31T23:59:59Z");
        UpdateControl<HelmComponent> control = reconcile(component("ory", ComponentState.STARTED, farAhead, 1L));
        assertThat(written).singleElement().satisfies(s -> {
            assertThat(s.getState()).isEqualTo(ComponentState.STARTED);
            assertThat(s.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(s.getMessage()).contains("was ahead of the operator's clock");
        });
        assertThat(control.getScheduleDelay())
                .as("the state's whole dwell, from now")
                .contains(3000L);
    }

    @Test
    void aStateLongOverdueMovesOnByOneStepOnly() {
        clock.advance(Duration.ofHours(1));
        reconcile(component("ory", ComponentState.STARTED, T0, 1L));
        assertThat(written)
                .singleElement()
                .satisfies(s -> assertThat(s.getState()).isEqualTo(ComponentState.FAILING));
    }

    @Test
    void aTransitionTimeCenturiesBackMovesOnAndIsToldAsADayLate() {
        List<Long> late = new ArrayList<>();
        reconciler.recordLatenessWith(d -> late.add(d.toNanos())); // as a timer records it
        reconcile(component("ory", ComponentState.STARTED, Instant.parse("0001-01-01T00:00:00Z"), 1L));
        assertThat(written)
                .singleElement()
                .satisfies(s -> assertThat(s.getState()).isEqualTo(ComponentState.FAILING));
        assertThat(late).containsExactly(Duration.ofDays(1).toNanos());
    }

    @Test
    void aTransitionTimeThatIsNotATimeCountsAsDue() {
        HelmComponent component = component("ory", ComponentState.RETRYING, T0, 1L);
        component.getStatus().setLastTransitionTime("yesterday");
        UpdateControl<HelmComponent> control = reconcile(component);
        assertThat(written)
                .singleElement()
                .satisfies(s -> assertThat(s.getState()).isEqualTo(ComponentState.SUCCESS));
        assertThat(control.getScheduleDelay()).isEmpty();
    }

    @Test
    void aNewSpecOnAFinishedComponentIsRecordedAsSeenWithoutAnotherTransition() {
        HelmComponent component = component("ory", ComponentState.SUCCESS, T0, 2L);
        component.getStatus().setObservedGeneration(1L);
        reconcile(component);
        assertThat(written).singleElement().satisfies(s -> {
            assertThat(s.getState()).isEqualTo(ComponentState.SUCCESS);
            assertThat(s.getObservedGeneration()).isEqualTo(2L);
            assertThat(s.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        });
        written.clear();
        component.getStatus().setObservedGeneration(2L);
        reconcile(component);
        assertThat(written).as("nothing new to say").isEmpty();
    }

    @Test
    void onlyAFinishedComponentWithItsSpecObservedCanWaitBehindDueWork() {
        assertThat(reconciler.canWait(component("ory", ComponentState.SUCCESS, T0, 1L)))
                .isTrue();
        assertThat(reconciler.canWait(component("ory", null, null, 1L)))
                .as("new")
                .isFalse();
        assertThat(reconciler.canWait(component("ory", ComponentState.RETRYING, T0, 1L)))
                .isFalse();
        HelmComponent edited = component("ory", ComponentState.SUCCESS, T0, 1L);
        edited.getMetadata().setGeneration(2L);
        assertThat(reconciler.canWait(edited)).as("spec changed").isFalse();
        HelmComponent deleted = component("ory", ComponentState.SUCCESS, T0, 1L);
        deleted.getMetadata().setDeletionTimestamp(T0.toString());
        assertThat(reconciler.canWait(deleted)).as("being deleted").isFalse();
    }

    private UpdateControl<HelmComponent> reconcile(HelmComponent component) {
        return reconciler.reconcile(component, new FakeContext<>(component, List.of()));
    }

    private static HelmComponent component(String module, ComponentState state, Instant since, long generation) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName("k-" + module)
                .withNamespace("ns")
                .withGeneration(generation)
                .build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        if (state != null) {
            component.setStatus(new HelmComponentStatus());
            component.getStatus().setState(state);
            component.getStatus().setLastTransitionTime(since.toString());
            component.getStatus().setObservedGeneration(generation);
        }
        return component;
    }
}
