package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.queue.PriorityWorkQueue.CanWait;
import io.kyma.operator.testing.MutableClock;

class PriorityWorkQueueTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final PriorityWorkQueue queue = new PriorityWorkQueue(clock, Duration.ofSeconds(30));

    private static Runnable task(String name) {
        return new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    private List<String> pollAll() {
        List<String> order = new ArrayList<>();
        Runnable next;
        while ((next = queue.poll()) != null) {
            order.add(next instanceof CanWait w ? w.task().toString() : next.toString());
        }
        return order;
    }

    @Test
    void dueWorkGoesBeforeWorkThatCanWaitAndEachLaneKeepsItsOrder() {
        queue.offer(new CanWait(task("resync-1")));
        queue.offer(task("due-1"));
        queue.offer(new CanWait(task("resync-2")));
        queue.offer(task("due-2"));
        assertThat(queue.dueSize()).isEqualTo(2);
        assertThat(queue.canWaitSize()).isEqualTo(2);
        assertThat(pollAll()).containsExactly("due-1", "due-2", "resync-1", "resync-2");
        assertThat(queue.poll()).isNull();
    }

    @Test
    void onceTheOldestThatCanWaitIsOverdueTheLanesTakeTurns() {
        queue.offer(new CanWait(task("resync-1")));
        queue.offer(new CanWait(task("resync-2")));
        clock.advance(Duration.ofSeconds(31));
        for (int i = 1; i <= 4; i++) {
            queue.offer(task("due-" + i));
        }
        assertThat(pollAll()).containsExactly("resync-1", "due-1", "resync-2", "due-2", "due-3", "due-4");
    }

    @Test
    void waitingExactlyTheBoundIsNotYetOverdue() {
        queue.offer(new CanWait(task("resync")));
        clock.advance(Duration.ofSeconds(30));
        queue.offer(task("due"));
        assertThat(pollAll()).containsExactly("due", "resync");
    }

    @Test
    void drainingTakesTheServiceOrderAndEmptiesBothLanes() {
        queue.offer(new CanWait(task("resync")));
        queue.offer(task("due"));
        List<Runnable> sink = new ArrayList<>();
        assertThat(queue.drainTo(sink)).isEqualTo(2);
        assertThat(sink.get(0)).hasToString("due");
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void removeFindsATaskInEitherLane() {
        Runnable resync = new CanWait(task("resync"));
        Runnable due = task("due");
        queue.offer(resync);
        queue.offer(due);
        assertThat(queue.remove(resync)).isTrue();
        assertThat(queue.remove(resync)).isFalse();
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.peek()).isSameAs(due);
    }

    @Test
    void aTimedPollOnAnEmptyQueueGivesUp() throws InterruptedException {
        assertThat(queue.poll(1, TimeUnit.MILLISECONDS)).isNull();
    }
}
