package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class GlobalGateTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    private GlobalGate gate(double rate, int burst) {
        return new GlobalGate(new FairTokenQueue(rate, burst, clock), d -> {}, clock);
    }

    @Test
    void everyReconcileTakesATokenOfTheOneBucket() {
        GlobalGate gate = gate(10, 2);
        assertThat(gate.admit("kyma/a", "ns")).isEmpty();
        assertThat(gate.admit("helmcomponent/b", "ns")).isEmpty();
        assertThat(gate.admit("kyma/c", "ns")).contains(Duration.ofMillis(100));
        assertThat(gate.admit("helmcomponent/d", "ns")).contains(Duration.ofMillis(200));
    }

    @Test
    void aDelayedResourceUsesTheTokenItReservedInsteadOfTakingAnother() {
        GlobalGate gate = gate(10, 1);
        gate.admit("first", "ns");
        assertThat(gate.admit("r", "ns")).contains(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(40));
        assertThat(gate.admit("r", "ns"))
                .as("asked early: still waiting, nothing new taken")
                .contains(Duration.ofMillis(60));
        clock.advance(Duration.ofMillis(60));
        assertThat(gate.admit("r", "ns")).isEmpty();
        assertThat(gate.admit("next", "ns")).as("the next token").contains(Duration.ofMillis(100));
        assertThat(gate.reserved()).isEqualTo(1);
    }

    @Test
    void anotherNamespaceWaitsForOneTokenPerNamespaceNotForTheBurst() {
        GlobalGate gate = gate(10, 1);
        IntStream.range(0, 50).forEach(i -> gate.admit("busy-" + i, "busy"));
        assertThat(gate.admit("quiet-0", "quiet"))
                .as("first come first served it would wait 5 s")
                .hasValueSatisfying(wait -> assertThat(wait).isLessThanOrEqualTo(Duration.ofMillis(200)));
    }

    @Test
    void aTokenNoResourceCameBackForIsForgotten() {
        GlobalGate gate = gate(1000, 1);
        IntStream.range(0, 10).forEach(i -> gate.admit("gone-" + i, "ns")); // deleted while they waited
        clock.advance(GlobalGate.STALE.plusSeconds(1));
        IntStream.range(0, 1024).forEach(i -> {
            gate.admit("live-" + i, "ns");
            clock.advance(Duration.ofMillis(1));
        });
        assertThat(gate.reserved()).as("only the live ones still waiting").isLessThan(10);
    }

    @Test
    void theOpenGateNeverLimits() {
        for (int i = 0; i < 1000; i++) {
            assertThat(GlobalGate.OPEN.admit("r" + i, "ns")).isEmpty();
        }
        assertThat(GlobalGate.OPEN.reserved()).isZero();
    }
}
