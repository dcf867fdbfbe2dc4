package io.kyma.operator.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class TenantQueueTest {
    /** Takes and is done with each item in turn, as one taker; each item's tenant is its first letter. */
    private static List<String> drain(TenantQueue<String> queue) {
        List<String> out = new ArrayList<>();
        for (Optional<String> next = queue.poll(); next.isPresent(); next = queue.poll()) {
            out.add(next.get());
            queue.done(next.get().substring(0, 1));
        }
        return out;
    }

    /** Takes every item that may be taken now, done with none of them, as many takers stuck with their items. */
    private static List<String> takeAll(TenantQueue<String> queue) {
        List<String> out = new ArrayList<>();
        for (Optional<String> next = queue.poll(); next.isPresent(); next = queue.poll()) {
            out.add(next.get());
        }
        return out;
    }

    @Test
    void tenantsAreServedInTurnEachInItsOwnOrder() {
        TenantQueue<String> queue = new TenantQueue<>(10);
        for (String item : List.of("a1", "a2", "a3", "b1", "c1", "b2")) {
            assertThat(queue.offer(item.substring(0, 1), item)).isEmpty();
        }
        assertThat(drain(queue)).containsExactly("a1", "b1", "c1", "a2", "b2", "a3");
        assertThat(queue.size()).isZero();
    }

    @Test
    void whenFullTheTenantWithTheMostWaitingLosesItsOldest() {
        TenantQueue<String> queue = new TenantQueue<>(4);
        for (int i = 1; i <= 4; i++) {
            assertThat(queue.offer("a", "a" + i)).isEmpty();
        }
        // a's next item takes the place of its own oldest
        assertThat(queue.offer("a", "a5")).contains("a1");
        // b's takes the place of a's oldest
        assertThat(queue.offer("b", "b1")).contains("a2");
        assertThat(queue.offer("b", "b2")).contains("a3");
        // now a and b have 2 each: b would have more, so it loses its own oldest
        assertThat(queue.offer("b", "b3")).contains("b1");
        assertThat(queue.offer("c", "c1")).contains("a4");
        assertThat(queue.size()).isEqualTo(4);
        assertThat(drain(queue)).containsExactly("a5", "b2", "c1", "b3");
    }

    @Test
    void whenEveryWaitingItemIsAnotherTenantsANewTenantWaitsOutside() {
        TenantQueue<String> queue = new TenantQueue<>(2);
        queue.offer("a", "a1");
        queue.offer("b", "b1");
        assertThat(queue.offer("c", "c1")).contains("c1");
        assertThat(drain(queue)).containsExactly("a1", "b1");
    }

    @Test
    void aTenantWithAnItemOutIsServedAgainOnlyOnceItsTakerIsDone() {
        TenantQueue<String> queue = new TenantQueue<>(10);
        for (String item : List.of("a1", "a2", "b1", "b2")) {
            queue.offer(item.substring(0, 1), item);
        }
        assertThat(queue.poll()).contains("a1");
        assertThat(queue.poll()).contains("b1");
        queue.offer("a", "a3");
        assertThat(queue.poll()).as("a and b each have an item out").isEmpty();
        queue.offer("c", "c1");
        assertThat(queue.poll()).contains("c1");
        queue.done("b");
        queue.done("a");
        queue.done("a"); // once more: no item of a is out, nothing changes
        assertThat(takeAll(queue)).containsExactly("b2", "a2");
        assertThat(takeAll(queue)).as("a3 waits for a2's taker").isEmpty();
        queue.done("a");
        assertThat(takeAll(queue)).containsExactly("a3");
    }

    @Test
    void aTenantWithAnItemOutStillLosesItsOldestWhenItHasTheMostWaiting() {
        TenantQueue<String> queue = new TenantQueue<>(3);
        queue.offer("a", "a1");
        assertThat(queue.poll()).contains("a1");
        for (String item : List.of("a2", "a3", "a4")) {
            assertThat(queue.offer("a", item)).isEmpty();
        }
        assertThat(queue.offer("b", "b1")).contains("a2");
        assertThat(takeAll(queue)).containsExactly("b1");
        queue.done("a");
        assertThat(takeAll(queue)).containsExactly("a3");
    }

    @Test
    void takeWaitsForAnItem() throws Exception {
        TenantQueue<String> queue = new TenantQueue<>(1);
        List<String> taken = new ArrayList<>();
        Thread taker = new Thread(() -> {
            try {
                taken.add(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taker.start();
        queue.offer("a", "a1");
        taker.join(Duration.ofMinutes(2).toMillis()); // catches a hang only
        assertThat(taken).containsExactly("a1");
        assertThatThrownBy(() -> new TenantQueue<String>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
