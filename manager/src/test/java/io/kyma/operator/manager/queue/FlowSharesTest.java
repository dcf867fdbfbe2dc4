package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FlowSharesTest {
    private final FlowShares shares = new FlowShares();

    @Test
    void noFlowIsHeldToAShareUntilTheWorkersAreKnown() {
        shares.started("a");
        shares.started("a");
        shares.activity("b", 1);
        assertThat(shares.share()).isEqualTo(Integer.MAX_VALUE);
        assertThat(shares.belowShare().test("a")).isTrue();
    }

    @Test
    void theShareIsTheWorkersDividedAmongTheFlowsThatRunOrWaitRoundedUp() {
        shares.workers(6);
        for (int i = 0; i < 3; i++) {
            shares.started("a");
        }
        shares.activity("b", 1); // b has tasks in a lane
        assertThat(shares.share()).isEqualTo(3);
        assertThat(shares.belowShare().test("a")).isFalse();
        assertThat(shares.belowShare().test("b")).isTrue();

        shares.workers(7);
        assertThat(shares.share()).isEqualTo(4);
        assertThat(shares.belowShare().test("a")).isTrue();
    }

    @Test
    void aFlowCountsWhileItRunsOrWaitsAndNoLongerAfter() {
        shares.workers(6);
        shares.started("a");
        shares.activity("b", 1);
        shares.activity("c", 1);
        assertThat(shares.share()).isEqualTo(2);
        shares.activity("c", -1);
        assertThat(shares.share()).isEqualTo(3);
        shares.ended("a");
        assertThat(shares.share()).as("no flow runs").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void anEndOfAFlowNeverStartedChangesNothing() {
        shares.workers(6);
        shares.started("a");
        shares.activity("b", 1);
        shares.ended("x");
        assertThat(shares.share()).isEqualTo(3);
        shares.ended("a");
        shares.ended("a");
        shares.started("a");
        assertThat(shares.share()).as("a and b, each counted once").isEqualTo(3);
    }
}
