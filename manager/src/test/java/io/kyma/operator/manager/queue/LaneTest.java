package io.kyma.operator.manager.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class LaneTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private final List<String> changes = new ArrayList<>();
    private final Lane lane = new Lane((flow, change) -> changes.add(flow + (change > 0 ? "+" : "-")));
    private long arrivals;

    private static Runnable task(String name) {
        return Tasks.named(name);
    }

    private Runnable add(String flow, String name) {
        Runnable task = task(flow + "/" + name);
        lane.add(new Lane.Queued(task, flow, NOW, arrivals++));
        return task;
    }

    private static String name(Lane.Queued queued) {
        return queued == null ? null : queued.task().toString();
    }

    @Test
    void flowsTakeTurnsAndTheLaneSaysWhenAFlowComesAndGoes() {
        add("a", "1");
        add("a", "2");
        add("b", "1");
        assertThat(changes).containsExactly("a+", "b+");
        assertThat(lane.flows()).isEqualTo(2);

        assertThat(name(lane.poll())).isEqualTo("a/1");
        assertThat(name(lane.poll())).isEqualTo("b/1");
        assertThat(changes).containsExactly("a+", "b+", "b-");
        assertThat(name(lane.poll())).isEqualTo("a/2");
        assertThat(changes).containsExactly("a+", "b+", "b-", "a-");
        assertThat(lane.poll()).isNull();
        assertThat(lane.size()).isZero();
    }

    @Test
    void theOldestIsTheEarliestArrivalOfAnyFlowNotTheHeadInTurn() {
        add("a", "1");
        add("a", "2");
        add("b", "1");
        lane.poll(); // a/1; b's turn next
        assertThat(name(lane.peek())).isEqualTo("b/1");
        assertThat(name(lane.oldest())).isEqualTo("a/2");
    }

    @Test
    void aFlowPassedOverKeepsItsPlaceAtTheFront() {
        add("a", "1");
        add("b", "1");
        add("c", "1");
        add("a", "2");
        assertThat(name(lane.poll(flow -> !flow.equals("a")))).isEqualTo("b/1");
        assertThat(name(lane.poll())).isEqualTo("a/1");
        assertThat(name(lane.poll())).isEqualTo("c/1");
        assertThat(name(lane.poll())).isEqualTo("a/2");
    }

    @Test
    void whenNoFlowMayRunTheFlowInTurnGoesAnyway() {
        add("a", "1");
        add("b", "1");
        assertThat(name(lane.poll(flow -> false))).isEqualTo("a/1");
    }

    @Test
    void removingAHeadKeepsTheOldestAndTheTurnsInStep() {
        Runnable a1 = add("a", "1");
        add("b", "1");
        add("a", "2");
        Runnable b2 = add("b", "2");
        assertThat(lane.remove(a1)).isTrue();
        assertThat(name(lane.oldest())).isEqualTo("b/1");
        assertThat(lane.remove(b2)).isTrue();
        assertThat(lane.remove(b2)).isFalse();
        assertThat(lane.size()).isEqualTo(2);
        List<Runnable> all = new ArrayList<>();
        lane.addTasksTo(all);
        assertThat(all).extracting(Object::toString).containsExactlyInAnyOrder("a/2", "b/1");
        assertThat(name(lane.poll())).isEqualTo("a/2");
        assertThat(name(lane.poll())).isEqualTo("b/1");
    }
}
