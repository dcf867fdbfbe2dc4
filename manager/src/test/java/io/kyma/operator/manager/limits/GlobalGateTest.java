package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class GlobalGateTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void everyControllerSharesTheOneBucket() {
        FairTokenQueue bucket = new FairTokenQueue(10, 2, clock);
        GlobalGate kymas = new GlobalGate(bucket, d -> {
        });
        GlobalGate components = new GlobalGate(bucket, d -> {
        });
        assertThat(kymas.isLimited(kymas.initState())).isEmpty();
        assertThat(components.isLimited(components.initState())).isEmpty();
        assertThat(kymas.isLimited(kymas.initState())).contains(Duration.ofMillis(100));
        assertThat(components.isLimited(components.initState())).contains(Duration.ofMillis(200));
    }

    @Test
    void aDelayedResourceUsesTheTokenItReservedInsteadOfTakingAnother() {
        FairTokenQueue bucket = new FairTokenQueue(10, 1, clock);
        GlobalGate gate = new GlobalGate(bucket, d -> {
        });
        gate.isLimited(gate.initState());
        GlobalGate.Reservation state = gate.initState();
        assertThat(gate.isLimited(state)).contains(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(40));
        assertThat(gate.isLimited(state)).as("asked early: still waiting, nothing new taken")
                .contains(Duration.ofMillis(60));
        clock.advance(Duration.ofMillis(60));
        assertThat(gate.isLimited(state)).isEmpty();
        assertThat(gate.isLimited(gate.initState())).as("the next token").contains(Duration.ofMillis(100));
    }

    @Test
    void theOpenGateNeverLimits() {
        var open = GlobalGate.open();
        for (int i = 0; i < 1000; i++) {
            assertThat(open.isLimited(open.initState())).isEmpty();
        }
    }
}
