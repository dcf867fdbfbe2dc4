package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.queue.PriorityWorkQueue.Tagged;
import io.kyma.operator.testing.MutableClock;

class PriorityWorkQueueTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final PriorityWorkQueue queue = new PriorityWorkQueue(clock, Duration.ofSeconds(30));

    private static Runnable task(String name) {
        return Tasks.named(name);
    }

    private static Runnable canWait(Runnable task) {
        return new Tagged(task, "", true);
    }

    private static Runnable in(String namespace, String name) {
        return new Tagged(task(namespace + "/" + name), namespace, false);
    }

    private List<String> pollAll() {
        List<String> order = new ArrayList<>();
        Runnable next;
        while ((next = queue.poll()) != null) {
            order.add(next instanceof Tagged t ? t.task().toString() : next.toString());
        }
        return order;
    }

    @Test
    void dueWorkGoesBeforeWorkThatCanWaitAndEachLaneKeepsItsOrder() {
        queue.offer(canWait(task("resync-1")));
        queue.offer(task("due-1"));
        queue.offer(canWait(task("resync-2")));
        queue.offer(task("due-2"));
        assertThat(queue.dueSize()).isEqualTo(2);
        assertThat(queue.canWaitSize()).isEqualTo(2);
        assertThat(pollAll()).containsExactly("due-1", "due-2", "resync-1", "resync-2");
        assertThat(queue.poll()).isNull();
    }

    @Test
    void onceTheOldestThatCanWaitIsOverdueTheLanesTakeTurns() {
        queue.offer(canWait(task("resync-1")));
        queue.offer(canWait(task("resync-2")));
        clock.advance(Duration.ofSeconds(31));
        for (int i = 1; i <= 4; i++) {
            queue.offer(task("due-" + i));
        }
        assertThat(pollAll()).containsExactly("resync-1", "due-1", "resync-2", "due-2", "due-3", "due-4");
    }

    @Test
    void waitingExactlyTheBoundIsNotYetOverdue() {
        queue.offer(canWait(task("resync")));
        clock.advance(Duration.ofSeconds(30));
        queue.offer(task("due"));
        assertThat(pollAll()).containsExactly("due", "resync");
    }

    @Test
    void drainingTakesTheServiceOrderAndEmptiesBothLanes() {
        queue.offer(canWait(task("resync")));
        queue.offer(task("due"));
        List<Runnable> sink = new ArrayList<>();
        assertThat(queue.drainTo(sink)).isEqualTo(2);
        assertThat(sink.get(0)).hasToString("due");
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void removeFindsATaskInEitherLane() {
        Runnable resync = canWait(task("resync"));
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

    @Test
    void aNamespaceHoldingItsShareOfWorkersWaitsWhileAnotherNamespacesWorkWaits() {
        queue.workers(4);
        for (int i = 1; i <= 4; i++) {
            queue.started(in("tenant-a", "long-" + i)); // tenant-a's long reconciles hold every worker
        }
        for (int i = 1; i <= 10; i++) {
            queue.offer(in("tenant-a", "k" + i));
        }
        queue.offer(in("tenant-b", "k1"));
        queue.offer(in("tenant-b", "k2"));
        List<String> order = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            queue.ended(in("tenant-a", "long-" + i)); // a worker comes free
            Runnable next = queue.poll();
            order.add(((Tagged) next).task().toString());
            queue.started(next);
        }
        // 4 workers, 2 namespaces: a share of 2 each; tenant-a held more, so tenant-b's work goes first, twice,
        // and once tenant-b waits no more, the turn is tenant-a's again
        assertThat(order).containsExactly("tenant-b/k1", "tenant-b/k2", "tenant-a/k1");
    }

    @Test
    void namespacesWhoseWorkIsDoneNoLongerCountInTheShare() {
        queue.workers(4);
        for (String gone : List.of("x", "y", "z")) {
            queue.offer(in(gone, "k"));
            Runnable task = queue.poll();
            queue.started(task);
            queue.ended(task);
        }
        queue.started(in("tenant-a", "long-1"));
        queue.offer(in("tenant-a", "k1"));
        queue.offer(in("tenant-b", "k1"));
        // 4 workers, 2 namespaces: tenant-a holds 1 of its 2 and its turn came first; counting the three gone
        // namespaces, its share would be 1 and tenant-b would go first
        assertThat(((Tagged) queue.poll()).task().toString()).isEqualTo("tenant-a/k1");
    }

    @Test
    void aNamespaceAloneMayHoldEveryWorker() {
        queue.workers(2);
        queue.started(in("tenant-a", "long-1"));
        queue.started(in("tenant-a", "long-2"));
        queue.offer(in("tenant-a", "k1"));
        queue.ended(in("tenant-a", "long-1"));
        assertThat(((Tagged) queue.poll()).task().toString()).isEqualTo("tenant-a/k1");
    }

    @Test
    void namespacesTakeTurnsSoABurstInOneDelaysAnotherByOneTaskPerBusyNamespace() {
        for (int i = 1; i <= 1000; i++) {
            queue.offer(in("tenant-a", "k" + i));
        }
        queue.offer(in("tenant-b", "k1"));
        queue.offer(in("tenant-b", "k2"));
        queue.offer(in("tenant-c", "k1"));
        assertThat(queue.flowsQueued()).isEqualTo(3);
        List<String> order = pollAll();
        assertThat(order).hasSize(1003);
        assertThat(order.subList(0, 6))
                .containsExactly(
                        "tenant-a/k1", "tenant-b/k1", "tenant-c/k1", "tenant-a/k2", "tenant-b/k2", "tenant-a/k3");
        assertThat(order.subList(6, 1003)).allMatch(name -> name.startsWith("tenant-a/"));
        assertThat(queue.flowsQueued()).isZero();
    }

    @Test
    void aNamespaceThatArrivesLaterWaitsForOneTurnNotForTheBacklog() {
        for (int i = 1; i <= 100; i++) {
            queue.offer(in("tenant-a", "k" + i));
        }
        for (int i = 1; i <= 50; i++) {
            queue.poll();
        }
        queue.offer(in("tenant-b", "k1"));
        assertThat(pollAll().subList(0, 2)).containsExactly("tenant-a/k51", "tenant-b/k1");
    }

    @Test
    void eachLaneIsFairAndTheOverdueRuleReadsTheOldestTaskOfAnyNamespace() {
        queue.offer(new Tagged(task("a/resync-1"), "a", true));
        clock.advance(Duration.ofSeconds(10));
        queue.offer(new Tagged(task("b/resync-1"), "b", true));
        queue.offer(new Tagged(task("a/resync-2"), "a", true));
        clock.advance(Duration.ofSeconds(21)); // a/resync-1 has waited 31 s, b's only 21 s
        queue.offer(in("a", "due-1"));
        queue.offer(in("a", "due-2"));
        queue.offer(in("b", "due-1"));
        assertThat(pollAll())
                .containsExactly("a/resync-1", "a/due-1", "b/due-1", "a/due-2", "b/resync-1", "a/resync-2");
    }

    @Test
    void removingTheLastTaskOfANamespaceEndsItsTurn() {
        Runnable only = in("b", "k1");
        queue.offer(in("a", "k1"));
        queue.offer(only);
        queue.offer(in("a", "k2"));
        assertThat(queue.remove(only)).isTrue();
        assertThat(queue.flowsQueued()).isEqualTo(1);
        assertThat(pollAll()).containsExactly("a/k1", "a/k2");
    }

    @Test
    void removingATaskBehindTheHeadOfItsNamespaceKeepsTheRestInOrder() {
        Runnable middle = in("a", "k2");
        queue.offer(in("a", "k1"));
        queue.offer(middle);
        queue.offer(in("a", "k3"));
        queue.offer(in("b", "k1"));
        assertThat(queue.remove(middle)).isTrue();
        assertThat(queue.size()).isEqualTo(3);
        assertThat(pollAll()).containsExactly("a/k1", "b/k1", "a/k3");
    }

    @Test
    void aLongBacklogInOneNamespaceWithTrafficInOthersHoldsOnlyWhatIsQueued() {
        for (int i = 0; i < 1000; i++) {
            queue.offer(in("big", "k" + i));
        }
        for (int i = 0; i < 5000; i++) {
            queue.offer(in("small-" + (i % 9), "k" + i));
            queue.poll();
        }
        assertThat(queue.size()).isEqualTo(1000);
        assertThat(queue.flowsQueued()).isLessThanOrEqualTo(10);
        assertThat(pollAll()).hasSize(1000);
        assertThat(queue.size()).isZero();
    }

    @Test
    void aClusterScopedResourceHasAFlowOfItsOwn() {
        queue.offer(in("a", "k1"));
        queue.offer(in("a", "k2"));
        queue.offer(new Tagged(task("cluster"), null, false));
        assertThat(pollAll()).containsExactly("a/k1", "cluster", "a/k2");
    }
}
