package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.status.Conditions;
import io.kyma.operator.testing.Modules;

class StatusWritePolicyTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private final StatusWritePolicy policy = new StatusWritePolicy(INTERVAL);
    private final KymaStatusSummary summary = new KymaStatusSummary(new Conditions(Clock.fixed(T0, ZoneOffset.UTC)));
    private final Kyma kyma = KymaStatusSummaryTest.kyma("prod", "istio", "ory");

    @Test
    void theFirstStatusIsWrittenAtOnce() {
        assertThat(policy.decide(null, status(), null, T0).writeNow()).isTrue();
    }

    @Test
    void anUnchangedStatusIsNotWritten() {
        KymaStatus current = status(ComponentState.PENDING);
        var decision = policy.decide(current, status(ComponentState.PENDING), T0, T0.plusSeconds(60));
        assertThat(decision.writeNow()).isFalse();
        assertThat(decision.retryAfter()).isEmpty();
    }

    @Test
    void countChangesWaitForTheIntervalSinceTheLastWrite() {
        KymaStatus current = status(ComponentState.PENDING);
        KymaStatus desired = status(ComponentState.STARTED);
        var early = policy.decide(current, desired, T0, T0.plusSeconds(2));
        assertThat(early.writeNow()).isFalse();
        assertThat(early.retryAfter()).contains(Duration.ofSeconds(3));

        assertThat(policy.decide(current, desired, T0, T0.plusSeconds(5)).writeNow())
                .isTrue();
        assertThat(policy.decide(current, desired, null, T0).writeNow())
                .as("unknown last write")
                .isTrue();
    }

    @Test
    void phaseChangesAreWrittenAtOnce() {
        KymaStatus processing = status(ComponentState.SUCCESS, ComponentState.RETRYING);
        KymaStatus ready = status(ComponentState.SUCCESS, ComponentState.SUCCESS);
        assertThat(ready.getPhase()).isNotEqualTo(processing.getPhase());
        assertThat(policy.decide(processing, ready, T0, T0.plusMillis(10)).writeNow())
                .isTrue();
    }

    @Test
    void aNewGenerationIsWrittenAtOnce() {
        KymaStatus current = status(ComponentState.PENDING);
        KymaStatus desired = status(ComponentState.PENDING);
        desired.setObservedGeneration(current.getObservedGeneration() + 1);
        assertThat(policy.decide(current, desired, T0, T0.plusMillis(10)))
                .extracting(d -> d.writeNow())
                .isEqualTo(true);
    }

    @Test
    void eighteenModulesCostAtMostTwentyWrites() {
        // Replays the transitions of the 18 standard modules at 1 s per unit, with a reconcile per transition and
        // one when a deferred write is due, and counts the writes the policy allows.
        List<String> modules = Modules.EIGHTEEN;
        Kyma full = KymaStatusSummaryTest.kyma("prod", modules.toArray(String[]::new));
        List<Long> eventMillis = new ArrayList<>();
        for (String module : modules) {
            int n = module.length();
            eventMillis.addAll(List.of(0L, 1000L, 1000L + n * 1000L, 1000L + 2 * n * 1000L, 1000L + 3 * n * 1000L));
        }
        eventMillis.sort(null);
        KymaStatus stored = null;
        Instant lastWrite = null;
        Optional<Instant> timer = Optional.empty();
        int writes = 0;
        long end = eventMillis.get(eventMillis.size() - 1);
        for (long t = 0; t <= end + 10_000; t++) {
            Instant now = T0.plusMillis(t);
            final long at = t;
            boolean event = eventMillis.stream().anyMatch(e -> e == at)
                    || timer.map(now::equals).orElse(false);
            if (!event) {
                continue;
            }
            KymaStatus desired = summaryAt(full, modules, t);
            var decision = policy.decide(stored, desired, lastWrite, now);
            if (decision.writeNow()) {
                stored = desired;
                lastWrite = now;
                writes++;
            }
            timer = decision.retryAfter().map(now::plus);
        }
        assertThat(stored.getPhase()).isEqualTo(KymaPhase.READY);
        assertThat(writes).isLessThanOrEqualTo(20).isGreaterThanOrEqualTo(2);
    }

    private KymaStatus summaryAt(Kyma full, List<String> modules, long millis) {
        List<HelmComponent> components = new ArrayList<>();
        for (String module : modules) {
            long n = module.length() * 1000L;
            ComponentState state = millis >= 1000 + 3 * n
                    ? ComponentState.SUCCESS
                    : millis >= 1000 + 2 * n
                            ? ComponentState.RETRYING
                            : millis >= 1000 + n
                                    ? ComponentState.FAILING
                                    : millis >= 1000 ? ComponentState.STARTED : ComponentState.PENDING;
            components.add(KymaStatusSummaryTest.component(module, state));
        }
        return summary.summarise(full, ModulePlan.of(full), components);
    }

    private KymaStatus status(ComponentState... states) {
        List<HelmComponent> components = new ArrayList<>();
        String[] names = {"istio", "ory"};
        for (int i = 0; i < states.length; i++) {
            components.add(KymaStatusSummaryTest.component(names[i], states[i]));
        }
        return summary.summarise(kyma, ModulePlan.of(kyma), components);
    }
}
