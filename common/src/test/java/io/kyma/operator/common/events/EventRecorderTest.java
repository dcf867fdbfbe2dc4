package io.kyma.operator.common.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.kyma.operator.common.events.EventRecorder.Outcome;
import io.kyma.operator.testing.MutableClock;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

class EventRecorderTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
    private final List<Event> created = new ArrayList<>();
    private final List<String> aggregated = new ArrayList<>();
    private boolean gone;
    private boolean failing;

    private final EventRecorder.Writer writer = new EventRecorder.Writer() {
        @Override
        public String create(Event event) {
            if (failing) {
                throw new IllegalStateException("API server down");
            }
            created.add(event);
            return event.getMetadata().getGenerateName() + created.size();
        }

        @Override
        public boolean aggregate(String namespace, String name, int count, String lastTimestamp) {
            aggregated.add(namespace + "/" + name + " x" + count + " at " + lastTimestamp);
            return !gone;
        }
    };

    private EventRecorder recorder(int queue) {
        return new EventRecorder(
                clock,
                writer,
                new EventRecorder.Settings(
                        "kyma-operator",
                        "pod-1",
                        10,
                        10,
                        25,
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(10),
                        queue,
                        100,
                        1));
    }

    private static ConfigMap object(String name) {
        return object("tenant", name);
    }

    private static ConfigMap object(String namespace, String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withUid("uid-" + name)
                .withResourceVersion("7")
                .endMetadata()
                .build();
    }

    @Test
    void anEventNamesItsObjectAndSource() {
        EventRecorder recorder = recorder(10);
        recorder.warning(object("k1"), "NameTaken", "component k1-istio belongs to another Kyma");
        assertThat(recorder.sendNext()).isTrue();

        Event event = created.get(0);
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getReason()).isEqualTo("NameTaken");
        assertThat(event.getMetadata().getNamespace()).isEqualTo("tenant");
        assertThat(event.getMetadata().getGenerateName()).isEqualTo("k1.");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("ConfigMap");
        assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-k1");
        assertThat(event.getCount()).isEqualTo(1);
        assertThat(event.getFirstTimestamp()).isEqualTo("2026-11-26T10:00:00Z");
        assertThat(event.getSource().getComponent()).isEqualTo("kyma-operator");
        assertThat(event.getReportingInstance()).isEqualTo("pod-1");
        assertThat(recorder.count(Outcome.CREATED)).isEqualTo(1);
    }

    @Test
    void theSameEventAgainRaisesTheCountOfTheFirstAndANewOneFollowsAGoneOne() {
        EventRecorder recorder = recorder(10);
        recorder.warning(object("k1"), "NameTaken", "taken");
        recorder.sendNext();
        clock.advance(Duration.ofSeconds(30));
        recorder.warning(object("k1"), "NameTaken", "taken");
        recorder.sendNext();
        assertThat(created).hasSize(1);
        assertThat(aggregated).containsExactly("tenant/k1.1 x2 at 2026-11-26T10:00:30Z");

        gone = true;
        recorder.warning(object("k1"), "NameTaken", "taken");
        recorder.sendNext();
        assertThat(created).as("the Event was deleted meanwhile: a new one").hasSize(2);
        assertThat(recorder.count(Outcome.AGGREGATED)).isEqualTo(1);
        assertThat(recorder.count(Outcome.CREATED)).isEqualTo(2);
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() {
        EventRecorder recorder = recorder(2);
        for (int i = 0; i < 5; i++) {
            recorder.normal(object("k" + i), "Ready", "installed");
        }
        assertThat(recorder.count(Outcome.QUEUE_FULL)).isEqualTo(3);
        while (recorder.sendNext()) {}
        assertThat(created).hasSize(2);
    }

    @Test
    void oneNamespacesFloodDoesNotKeepAnothersEventsOut() {
        EventRecorder recorder = recorder(10);
        for (int i = 0; i < 50; i++) {
            recorder.normal(object("noisy", "k" + i), "Ready", "installed");
        }
        recorder.normal(object("quiet", "q1"), "Ready", "installed");
        recorder.normal(object("quiet", "q2"), "Ready", "installed");
        // 50 + 2 offered to 10 places: the noisy namespace's oldest make room for its newest and the quiet one's
        assertThat(recorder.count(Outcome.QUEUE_FULL)).isEqualTo(42);
        assertThat(recorder.sendNext()).isTrue();
        assertThat(recorder.sendNext()).isTrue();
        assertThat(recorder.sendNext()).isTrue();
        assertThat(created)
                .extracting(e -> e.getInvolvedObject().getNamespace() + "/"
                        + e.getInvolvedObject().getName())
                .containsExactly("noisy/k42", "quiet/q1", "noisy/k43");
        while (recorder.sendNext()) {}
        assertThat(created)
                .extracting(e -> e.getInvolvedObject().getName())
                .contains("q2")
                .hasSize(10);
    }

    @Test
    void aFailedWriteIsCountedAndNeverThrown() {
        EventRecorder recorder = recorder(10);
        failing = true;
        recorder.normal(object("k1"), "Ready", "installed");
        assertThat(recorder.sendNext()).isTrue();
        assertThat(recorder.count(Outcome.FAILED)).isEqualTo(1);
        recorder.record(new ConfigMap(), Events.Type.NORMAL, "Ready", "an object without metadata");
        assertThat(recorder.count(Outcome.FAILED)).isEqualTo(2);
    }

    @Test
    void aNamespacesRunOfFailedWritesIsLoggedAtWarnLevelOnce() {
        Logger logger = (Logger) LoggerFactory.getLogger(EventRecorder.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            EventRecorder recorder = recorder(10);
            // each namespace fails, a twice in a row; then a succeeds once and fails again
            String[][] writes = {{"a", "fail"}, {"b", "fail"}, {"a", "fail"}, {"b", "fail"}, {"a", "ok"}, {"a", "fail"}
            };
            for (int i = 0; i < writes.length; i++) {
                failing = writes[i][1].equals("fail");
                recorder.normal(object(writes[i][0], "k" + i), "Ready", "installed");
                recorder.sendNext();
            }
            List<String> warned = new ArrayList<>();
            logged.list.stream()
                    .filter(e -> e.getLevel() == Level.WARN)
                    .forEach(e -> warned.add(e.getArgumentArray()[1] + "/" + e.getArgumentArray()[2]));
            assertThat(warned).containsExactly("a/k0", "b/k1", "a/k5");
            assertThat(recorder.count(Outcome.FAILED)).isEqualTo(5);
        } finally {
            logger.detachAppender(logged);
        }
    }

    @Test
    void aLongMessageIsCut() {
        EventRecorder recorder = recorder(10);
        recorder.normal(object("k1"), "Ready", "x".repeat(5000));
        recorder.sendNext();
        assertThat(created.get(0).getMessage()).hasSize(EventRecorder.MESSAGE_MAX);
    }

    @Test
    void anObjectBeyondItsShareIsLimited() {
        EventRecorder recorder = recorder(100);
        for (int i = 0; i < 30; i++) {
            recorder.normal(object("k1"), "Step", "step " + i);
        }
        while (recorder.sendNext()) {}
        assertThat(created).hasSize(25);
        assertThat(recorder.count(Outcome.LIMITED)).isEqualTo(5);
    }
}
