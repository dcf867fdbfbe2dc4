package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.MutableClock;

class FairTokenQueueTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void withOneFlowItIsThePlainBucket() {
        FairTokenQueue queue = new FairTokenQueue(20, 30, clock);
        for (int i = 0; i < 30; i++) {
            assertThat(queue.waitFor(queue.enqueue("a")))
                    .as("token %d of the burst", i)
                    .isZero();
        }
        FairTokenQueue.Ticket first = queue.enqueue("a");
        FairTokenQueue.Ticket second = queue.enqueue("a");
        assertThat(queue.waitFor(first)).isEqualTo(Duration.ofMillis(50));
        assertThat(queue.waitFor(second)).isEqualTo(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(50));
        assertThat(queue.waitFor(first)).isZero();
        assertThat(queue.grantedAt(first)).isEqualTo(clock.instant());
        assertThat(queue.waitFor(second)).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void threeHundredRequestsAtQps20Burst30TakeThirteenAndAHalfSeconds() {
        FairTokenQueue queue = new FairTokenQueue(20, 30, clock);
        FairTokenQueue.Ticket last = null;
        for (int i = 0; i < 300; i++) {
            last = queue.enqueue("a");
        }
        assertThat(queue.waitFor(last)).isEqualTo(Duration.ofMillis((300 - 30) * 50));
    }

    @Test
    void aFlowWithAThousandWaitingDelaysAnotherFlowByOneToken() {
        FairTokenQueue queue = new FairTokenQueue(10, 1, clock);
        List<FairTokenQueue.Ticket> busy = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            busy.add(queue.enqueue("busy"));
        }
        FairTokenQueue.Ticket quiet = queue.enqueue("quiet");
        assertThat(queue.waitFor(busy.get(999)))
                .as("the busy flow waits for itself")
                .isEqualTo(Duration.ofSeconds(100));
        assertThat(queue.waitFor(quiet))
                .as("the next token is the busy flow's, the one after it the quiet one's")
                .isEqualTo(Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(200));
        assertThat(queue.grantedAt(quiet)).isEqualTo(clock.instant());
        assertThat(busy.stream().filter(t -> queue.grantedAt(t) != null)).hasSize(2);
    }

    @Test
    void waitingFlowsAreServedInTurnAndTheRateHolds() {
        FairTokenQueue queue = new FairTokenQueue(10, 1, clock);
        List<FairTokenQueue.Ticket> tickets = new ArrayList<>();
        List<String> flows = new ArrayList<>();
        for (String flow : new String[] {"a", "a", "a", "a", "b", "b", "c"}) {
            tickets.add(queue.enqueue(flow));
            flows.add(flow);
        }
        assertThat(queue.flowsWaiting()).isEqualTo(3);
        List<String> order = new ArrayList<>();
        for (int step = 0; step < 7; step++) {
            clock.advance(Duration.ofMillis(100));
            for (int i = 0; i < tickets.size(); i++) {
                if (clock.instant().equals(queue.grantedAt(tickets.get(i)))) {
                    order.add(flows.get(i));
                }
            }
        }
        // the first token was the burst's, to the first ticket, at once
        assertThat(queue.grantedAt(tickets.get(0))).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(order).containsExactly("a", "b", "c", "a", "b", "a");
        assertThat(queue.flowsWaiting()).isZero();
    }

    @Test
    void tokensGrantedWhileNobodyAskedKeepTheInstantTheyAccrued() {
        FairTokenQueue queue = new FairTokenQueue(10, 1, clock);
        queue.enqueue("a");
        FairTokenQueue.Ticket a = queue.enqueue("a");
        FairTokenQueue.Ticket b = queue.enqueue("b");
        clock.advance(Duration.ofSeconds(5));
        assertThat(queue.grantedAt(b)).isEqualTo(Instant.parse("2026-01-01T00:00:00.200Z"));
        assertThat(queue.grantedAt(a)).isEqualTo(Instant.parse("2026-01-01T00:00:00.100Z"));
        assertThat(queue.waitFor(queue.enqueue("c")))
                .as("the idle bucket refilled to its burst")
                .isZero();
    }

    @Test
    void aCancelledTicketCostsNoToken() {
        FairTokenQueue queue = new FairTokenQueue(10, 1, clock);
        queue.enqueue("a");
        FairTokenQueue.Ticket gone = queue.enqueue("a");
        FairTokenQueue.Ticket next = queue.enqueue("a");
        FairTokenQueue.Ticket other = queue.enqueue("b");
        queue.cancel(gone);
        assertThat(queue.waitFor(gone)).isZero();
        clock.advance(Duration.ofMillis(100));
        assertThat(queue.grantedAt(next))
                .as("the token went past the cancelled ticket")
                .isEqualTo(clock.instant());
        queue.cancel(other);
        queue.cancel(other);
        assertThat(queue.flowsWaiting()).isZero();
        clock.advance(Duration.ofMillis(100));
        assertThat(queue.grantedAt(gone)).isNull();
        assertThat(queue.waitFor(queue.enqueue("c")))
                .as("the cancelled tickets left the token")
                .isZero();
    }

    @Test
    void aClockThatStepsBackGoesOnFromThereAndNeverStops() {
        FairTokenQueue queue = new FairTokenQueue(10, 1, clock);
        queue.enqueue("a");
        FairTokenQueue.Ticket waiting = queue.enqueue("a");
        clock.advance(Duration.ofHours(-1));
        assertThat(queue.waitFor(waiting))
                .as("one token's time from now, not an hour")
                .isEqualTo(Duration.ofMillis(100));
        clock.advance(Duration.ofMillis(100));
        assertThat(queue.waitFor(waiting)).isZero();
    }

    @Test
    void rejectsANonPositiveRateOrBurst() {
        assertThatThrownBy(() -> new FairTokenQueue(0, 1, clock)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FairTokenQueue(1, 0, clock)).isInstanceOf(IllegalArgumentException.class);
    }
}
