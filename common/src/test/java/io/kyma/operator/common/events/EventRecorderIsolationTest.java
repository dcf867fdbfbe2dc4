package io.kyma.operator.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.kyma.operator.common.events.EventRecorder.Outcome;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.MutableClock;

/**
 * Namespaces whose Event writes hang (an admission webhook that does not answer) next to many whose writes do not,
 * in generated layouts: the others' events go out while the hanging writes are still blocked, or, when there are at
 * least as many hanging namespaces as senders, within the stated number of deadlines.
 */
class EventRecorderIsolationTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-28T10:00:00Z"));

    /** The namespaces and their events in the order they are recorded, seeded. */
    private record Layout(int senders, List<String> hanging, List<String> order) {
        static Layout generate(int senders, int hanging, long seed) {
            Random random = new Random(seed);
            List<String> order = new ArrayList<>();
            List<String> hangingNamespaces = new ArrayList<>();
            for (int i = 0; i < hanging; i++) {
                hangingNamespaces.add("hanging-" + i);
                order.addAll(Collections.nCopies(1 + random.nextInt(5), "hanging-" + i));
            }
            int healthy = 2 + random.nextInt(12);
            for (int i = 0; i < healthy; i++) {
                order.addAll(Collections.nCopies(1 + random.nextInt(4), "ns-" + i));
            }
            Collections.shuffle(order, random);
            return new Layout(senders, hangingNamespaces, order);
        }

        long healthyIn(List<String> events) {
            return events.stream().filter(ns -> !hanging.contains(ns)).count();
        }

        long hangingNamespacesIn(List<String> events) {
            return events.stream().filter(hanging::contains).distinct().count();
        }

        /** The most events of one namespace whose writes do not hang. */
        long largestBurst() {
            Map<String, Long> bursts = new HashMap<>();
            order.stream().filter(ns -> !hanging.contains(ns)).forEach(ns -> bursts.merge(ns, 1L, Long::sum));
            return Collections.max(bursts.values());
        }
    }

    /**
     * Writes of the hanging namespaces block until the test lets the deadline pass, then fail as a timed-out request
     * does; the others' succeed at once. Counts calls and calls in flight per namespace.
     */
    private static final class HangingWriter implements EventRecorder.Writer {
        private final List<String> hanging;
        private final Map<String, Integer> inFlight = new HashMap<>();
        private final Map<String, Integer> mostInFlight = new LinkedHashMap<>();
        private final Map<String, Integer> calls = new HashMap<>();
        private long written;
        private int blocked;
        private int deadlines;
        private boolean fixed;

        HangingWriter(List<String> hanging) {
            this.hanging = hanging;
        }

        @Override
        public synchronized String create(Event event) {
            String namespace = event.getMetadata().getNamespace();
            mostInFlight.merge(namespace, inFlight.merge(namespace, 1, Integer::sum), Math::max);
            calls.merge(namespace, 1, Integer::sum);
            try {
                if (hanging.contains(namespace)) {
                    int deadline = deadlines;
                    blocked++;
                    notifyAll();
                    while (deadline == deadlines && !fixed) {
                        wait();
                    }
                    throw new IllegalStateException("the request timed out: admission webhook did not answer");
                }
                written++;
                notifyAll();
                return event.getMetadata().getGenerateName() + written;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                inFlight.merge(namespace, -1, Integer::sum);
            }
        }

        @Override
        public boolean aggregate(String namespace, String name, int count, String lastTimestamp) {
            return false; // every event of these layouts is another object's
        }

        /** The deadline of every write blocked now passes: each fails. */
        synchronized void deadlinePasses() {
            deadlines++;
            blocked = 0;
            notifyAll();
        }

        /** The webhook is fixed: every hanging write fails now and every later one at once. */
        synchronized void fix() {
            fixed = true;
            notifyAll();
        }

        /** Waits for {@code condition}, checked each time a write starts or ends; fails only on a hang. */
        synchronized void await(BooleanSupplier condition) throws InterruptedException {
            long end = System.nanoTime() + HangCatcher.STEP.toNanos();
            while (!condition.getAsBoolean()) {
                long left = end - System.nanoTime();
                assertThat(left).as("a hang").isPositive();
                wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private EventRecorder recorder(HangingWriter writer, int senders) {
        // the clock stands still: the burst lets every event of a layout go out at once
        return new EventRecorder(
                clock,
                writer,
                new EventRecorder.Settings(
                        "kyma-operator",
                        "pod-1",
                        1000,
                        100_000,
                        25,
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(10),
                        100_000,
                        100_000,
                        senders));
    }

    private static void record(EventRecorder recorder, List<String> namespaces, int from) {
        for (int i = 0; i < namespaces.size(); i++) {
            String namespace = namespaces.get(i);
            recorder.warning(object(namespace, namespace + "-" + (from + i)), "Failed", "event " + (from + i));
        }
    }

    private static ConfigMap object(String namespace, String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withUid("uid-" + name)
                .endMetadata()
                .build();
    }

    @Test
    void fewerHangingNamespacesThanSendersDelayNoOtherNamespacesEvents() throws Exception {
        for (int senders = 2; senders <= 5; senders++) {
            for (int hanging = 1; hanging < senders; hanging++) {
                for (long seed = 0; seed < 3; seed++) {
                    othersGoOutWhileTheHangingWritesAreBlocked(
                            Layout.generate(senders, hanging, seed * 100 + senders * 10 + hanging));
                }
            }
        }
    }

    private void othersGoOutWhileTheHangingWritesAreBlocked(Layout layout) throws InterruptedException {
        HangingWriter writer = new HangingWriter(layout.hanging());
        try (EventRecorder recorder = recorder(writer, layout.senders())) {
            List<String> first = layout.order().subList(0, layout.order().size() / 2);
            List<String> burst =
                    layout.order().subList(first.size(), layout.order().size());
            record(recorder, first, 0);
            recorder.start();
            writer.await(() ->
                    writer.written == layout.healthyIn(first) && writer.blocked == layout.hangingNamespacesIn(first));
            // a second burst while the hanging writes are still blocked
            record(recorder, burst, first.size());
            writer.await(() -> writer.written == layout.healthyIn(layout.order())
                    && writer.blocked == layout.hanging().size());
            assertThat(writer.deadlines).as(layout.toString()).isZero();
            endsAccounted(layout, writer, recorder);
        }
    }

    @Test
    void asManyHangingNamespacesAsSendersDelayAnotherNamespacesEventByAtMostTheirShareOfDeadlines() throws Exception {
        for (int senders = 1; senders <= 4; senders++) {
            for (int hanging = senders; hanging <= 2 * senders + 1; hanging++) {
                for (long seed = 0; seed < 3; seed++) {
                    othersGoOutWithinTheirShareOfDeadlines(
                            Layout.generate(senders, hanging, seed * 100 + senders * 10 + hanging));
                }
            }
        }
    }

    private void othersGoOutWithinTheirShareOfDeadlines(Layout layout) throws InterruptedException {
        HangingWriter writer = new HangingWriter(layout.hanging());
        try (EventRecorder recorder = recorder(writer, layout.senders())) {
            record(recorder, layout.order(), 0);
            recorder.start();
            long healthy = layout.healthyIn(layout.order());
            int deadlines = 0;
            while (true) {
                // every sender is blocked in a hanging write, or every other namespace's event is out
                writer.await(() -> writer.written == healthy || writer.blocked == layout.senders());
                synchronized (writer) {
                    if (writer.written == healthy) {
                        break;
                    }
                }
                writer.deadlinePasses();
                deadlines++;
            }
            // an event waits for at most ceil(h/S) deadlines once its namespace's earlier events are out
            int h = layout.hanging().size();
            long bound = layout.largestBurst() * ((h + layout.senders() - 1) / layout.senders());
            assertThat((long) deadlines).as(layout.toString()).isLessThanOrEqualTo(bound);
            endsAccounted(layout, writer, recorder);
        }
    }

    /**
     * Fixes the webhook and checks what became of every event: each hanging namespace's were tried once each and
     * counted failed, no namespace ever had two writes in flight, the others' were all created.
     */
    private static void endsAccounted(Layout layout, HangingWriter writer, EventRecorder recorder) {
        writer.fix();
        long total = layout.order().size();
        long healthy = layout.healthyIn(layout.order());
        await().atMost(HangCatcher.STEP)
                .pollInterval(Duration.ofMillis(1))
                .until(() -> recorder.count(Outcome.CREATED) + recorder.count(Outcome.FAILED) == total);
        synchronized (writer) {
            assertThat(writer.mostInFlight.values()).as(layout.toString()).allMatch(most -> most == 1);
            assertThat(recorder.count(Outcome.CREATED)).isEqualTo(healthy);
            assertThat(recorder.count(Outcome.FAILED)).isEqualTo(total - healthy);
            for (String namespace : layout.hanging()) {
                assertThat(writer.calls.get(namespace))
                        .as("one call per event, never retried: " + namespace)
                        .isEqualTo(Collections.frequency(layout.order(), namespace));
            }
        }
    }
}
