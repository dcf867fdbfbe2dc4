package io.kyma.operator.manager.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kyma.operator.testing.MutableClock;

/** Which asked-for reconciles count as lost: generated sequences of asks, arrivals and time against a model. */
class LateReconcilesTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final LateReconciles late = new LateReconciles(clock);

    @Test
    void aReconcileIsLostOnlyWhenItHasNotBegunGraceAfterItsTimeAndIsReportedOnce() {
        List<ConfigMap> resources = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            resources.add(configMap("r" + i, "uid-" + i));
        }
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            Map<String, Instant> awaited = new HashMap<>(); // the model: by uid, when its reconcile is lost
            for (int step = 0; step < 60; step++) {
                ConfigMap resource = resources.get(random.nextInt(resources.size()));
                String uid = resource.getMetadata().getUid();
                switch (random.nextInt(4)) {
                    case 0 -> {
                        Duration after = Duration.ofMillis(random.nextInt(120_000));
                        late.asked("c", resource, after);
                        awaited.put(uid, clock.instant().plus(after).plus(LateReconciles.GRACE));
                    }
                    case 1 -> {
                        late.came("c", resource);
                        awaited.remove(uid);
                    }
                    case 2 -> clock.advance(Duration.ofMillis(random.nextInt(90_000)));
                    default -> {
                        List<String> expected = awaited.entrySet().stream()
                                .filter(e -> clock.instant().isAfter(e.getValue()))
                                .map(Map.Entry::getKey)
                                .toList();
                        assertThat(late.overdue())
                                .extracting(LateReconciles.Due::uid)
                                .as("seed %d step %d", seed, step)
                                .containsExactlyInAnyOrderElementsOf(expected);
                        expected.forEach(awaited::remove);
                    }
                }
            }
            resources.forEach(r -> late.came("c", r));
            assertThat(late.awaited()).isZero();
        }
    }

    @Test
    void anObjectCreatedAgainUnderTheSameNameIsAwaitedOnItsOwn() {
        ConfigMap first = configMap("same", "uid-1");
        ConfigMap second = configMap("same", "uid-2");
        late.asked("c", first, Duration.ofSeconds(1));
        late.asked("c", second, Duration.ofSeconds(1));
        late.came("c", first);
        clock.advance(Duration.ofSeconds(1).plus(LateReconciles.GRACE).plusMillis(1));
        assertThat(late.overdue()).extracting(LateReconciles.Due::uid).containsExactly("uid-2");
        assertThat(late.overdue()).as("reported once").isEmpty();
    }

    @Test
    void aReleasedObjectsNameIsLookedAfterOnceItsCleanUpHasEndedAndADeliveryLeftUndoneIsOwedAgain() {
        ConfigMap gone = configMap("same", "uid-1");
        late.released("c", gone);
        assertThat(late.overdue()).as("its clean-up may still be ending").isEmpty();
        clock.advance(LateReconciles.RELEASED.plusMillis(1));
        List<LateReconciles.Due> due = late.overdue();
        assertThat(due).singleElement().satisfies(d -> {
            assertThat(d.replaced()).isTrue();
            assertThat(d.uid()).isEqualTo("uid-1");
        });
        late.again(due.get(0));
        assertThat(late.overdue()).isEmpty();
        clock.advance(LateReconciles.GRACE.plusMillis(1));
        assertThat(late.overdue()).extracting(LateReconciles.Due::replaced).containsExactly(true);
    }

    @Test
    void eachControllerAwaitsItsOwnReconciles() {
        ConfigMap resource = configMap("r", "uid");
        late.asked("a", resource, Duration.ZERO);
        late.asked("b", resource, Duration.ZERO);
        late.came("a", resource);
        clock.advance(LateReconciles.GRACE.plusMillis(1));
        assertThat(late.overdue()).extracting(LateReconciles.Due::controller).containsExactly("b");
    }

    private static ConfigMap configMap(String name, String uid) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .withUid(uid)
                .endMetadata()
                .build();
    }
}
