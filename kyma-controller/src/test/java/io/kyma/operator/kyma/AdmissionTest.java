package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Module;
import io.kyma.operator.testing.MutableClock;

class AdmissionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final AtomicInteger backlog = new AtomicInteger();
    /** Backlogs of namespaces other than "ns", which has {@link #backlog}. */
    private final Map<String, Integer> backlogs = new HashMap<>();

    private Admission admission(int bound) {
        Admission admission = new Admission(clock, bound);
        admission.measureBacklog(ns -> ns.equals("ns") ? backlog.get() : backlogs.getOrDefault(ns, 0));
        return admission;
    }

    @Test
    void theOldestKymaGoesFirstWhateverOrderTheyAreReconciledIn() {
        Admission admission = admission(10);
        Kyma first = kyma("b", 1, 18), second = kyma("a", 2, 18), third = kyma("c", 2, 18);
        List.of(third, second, first).forEach(k -> admission.changed(null, k));

        assertThat(admission.admit(third, 18, false)).as("two are older").contains(new Admission.Place(2, T0));
        assertThat(admission.admit(second, 18, false))
                .as("same second as c, first by name")
                .contains(new Admission.Place(1, T0));
        assertThat(admission.admit(first, 18, false)).isEmpty();
        assertThat(admission.admit(second, 18, false))
                .as("first's creates are under way")
                .isPresent();

        admission.createsDone(first.getMetadata().getUid());
        assertThat(admission.admit(third, 18, false))
                .as("second is still ahead")
                .isPresent();
        assertThat(admission.admit(second, 18, false)).isEmpty();
        assertThat(admission.waiting()).isEqualTo(1);
    }

    @Test
    void aKymaWaitsWhileTheComponentBacklogIsAtTheBoundAndIsWokenWhenItFalls() {
        Admission admission = admission(20);
        Kyma kyma = kyma("k", 1, 5);
        admission.changed(null, kyma);
        backlog.set(20);
        assertThat(admission.due()).isEmpty();
        assertThat(admission.admit(kyma, 5, false)).contains(new Admission.Place(0, T0));

        backlog.set(19);
        assertThat(admission.due()).containsExactly(new ResourceID("k", "ns"));
        assertThat(admission.due()).as("its room is reserved: returned once").isEmpty();
        backlog.set(25);
        assertThat(admission.admit(kyma, 5, false))
                .as("its room was reserved when it was woken")
                .isEmpty();
    }

    @Test
    void theHeadsThatFitAreWokenTogetherAndTheirRoomIsReserved() {
        Admission admission = admission(10);
        List<Kyma> kymas =
                IntStream.range(0, 5).mapToObj(i -> kyma("k" + i, i, 4)).toList();
        kymas.forEach(k -> admission.changed(null, k));
        assertThat(admission.due()).extracting(ResourceID::getName).containsExactly("k0", "k1", "k2");
        assertThat(admission.room("ns")).isEqualTo(-2);
        assertThat(admission.admit(kymas.get(3), 4, false))
                .as("no room left for the fourth")
                .isPresent();
        admission.changed(kymas.get(1), null); // deleted before its turn: its reservation goes back
        assertThat(admission.room("ns")).isEqualTo(2);
    }

    @Test
    void aWaitingKymaIsToldItsPlaceOnceWhenItStartsToWait() {
        Admission admission = admission(0);
        List<Kyma> kymas = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            kymas.add(kyma(String.format("k%03d", i), i, 1));
            admission.changed(null, kymas.get(i));
        }
        backlog.set(1);
        Kyma last = kymas.get(100);
        assertThat(admission.admit(last, 1, false)).contains(new Admission.Place(100, T0));
        clock.advance(Duration.ofMinutes(1));
        for (int i = 0; i < 30; i++) {
            admission.release(kymas.get(i).getMetadata().getUid());
        }
        assertThat(admission.admit(last, 1, false))
                .as("no status write per Kyma that leaves the line")
                .contains(new Admission.Place(100, T0));
    }

    @Test
    void theLastFewStillWaitForRoomHoweverManyAreInProgress() {
        Admission admission = admission(10);
        List<Kyma> kymas =
                IntStream.range(0, 6).mapToObj(i -> kyma("k" + i, i, 10)).toList();
        kymas.forEach(k -> admission.changed(null, k));
        assertThat(admission.admit(kymas.get(0), 10, false)).isEmpty();
        admission.createsDone(kymas.get(0).getMetadata().getUid());
        for (int i = 1; i < 5; i++) { // admitted by an earlier run
            admission.changed(null, processing(kymas.get(i)));
        }
        backlog.set(10);
        assertThat(admission.inProgress()).isEqualTo(5);
        assertThat(admission.waiting()).isEqualTo(1);
        assertThat(admission.due())
                .as("one waiting, five in progress, no room: it still waits")
                .isEmpty();
        assertThat(admission.admit(kymas.get(5), 10, false)).contains(new Admission.Place(0, T0));

        Kyma ready = processing(kymas.get(0));
        ready.getStatus().setPhase(KymaPhase.READY);
        admission.changed(kymas.get(0), ready);
        assertThat(admission.inProgress()).isEqualTo(4);
        backlog.set(9);
        assertThat(admission.due()).extracting(ResourceID::getName).containsExactly("k5");
    }

    private static Kyma processing(Kyma kyma) {
        Kyma copy = new Kyma();
        copy.setMetadata(kyma.getMetadata());
        copy.setSpec(kyma.getSpec());
        copy.setStatus(new KymaStatus());
        copy.getStatus().setPhase(KymaPhase.PROCESSING);
        return copy;
    }

    @Test
    void aKymaAdmittedBeforeARestartIsNotQueuedAgain() {
        Admission admission = admission(0);
        backlog.set(5);
        Kyma processing = kyma("p", 1, 3);
        processing.setStatus(new KymaStatus());
        processing.getStatus().setPhase(KymaPhase.PROCESSING);
        Kyma pending = kyma("q", 0, 3);
        pending.setStatus(new KymaStatus());
        pending.getStatus().setPhase(KymaPhase.PENDING);
        admission.changed(null, processing);
        admission.changed(null, pending);
        assertThat(admission.waiting()).isEqualTo(1);
        assertThat(admission.admit(processing, 3, false)).isEmpty();
        assertThat(admission.admit(pending, 3, true))
                .as("it has components: admitted before")
                .isEmpty();
    }

    @Test
    void aKymaWithNothingToCreateHoldsNoOneUp() {
        Admission admission = admission(10);
        Kyma invalid = kyma("x", 0, 2), next = kyma("y", 1, 2);
        admission.changed(null, invalid);
        admission.changed(null, next);
        assertThat(admission.admit(next, 2, false))
                .as("x is older and not yet reconciled")
                .isPresent();
        admission.release(invalid.getMetadata().getUid());
        assertThat(admission.admit(next, 2, false)).isEmpty();
    }

    @Test
    void aNegativeBoundAdmitsEveryKymaAtOnce() {
        Admission admission = admission(-1);
        backlog.set(1_000_000);
        List<Kyma> kymas =
                IntStream.range(0, 3).mapToObj(i -> kyma("k" + i, i, 18)).toList();
        kymas.forEach(k -> admission.changed(null, k));
        assertThat(kymas)
                .allSatisfy(k -> assertThat(admission.admit(k, 18, false)).isEmpty());
    }

    @Test
    void aBurstInOneNamespaceDoesNotDelayAnotherNamespacesKyma() {
        Admission admission = admission(18);
        List<Kyma> burst = IntStream.range(0, 1000)
                .mapToObj(i -> kyma("busy", "k" + i, i, 18))
                .toList();
        burst.forEach(k -> admission.changed(null, k));
        Kyma neighbour = kyma("quiet", "one", 2000, 18);
        admission.changed(null, neighbour);

        assertThat(admission.admit(burst.get(0), 18, false)).isEmpty();
        assertThat(admission.admit(burst.get(1), 18, false))
                .as("next in its line, but its namespace's room is taken")
                .contains(new Admission.Place(0, T0));
        assertThat(admission.admit(neighbour, 18, false))
                .as("admitted at once, beside the burst")
                .isEmpty();
        assertThat(admission.waiting()).isEqualTo(999);
    }

    @Test
    void componentsMadeByHandInOneNamespaceHoldOnlyThatNamespacesLine() {
        Admission admission = admission(18);
        backlogs.put("crowded", 10_000); // reconciles of HelmComponents made there without a Kyma
        Kyma held = kyma("crowded", "held", 1, 18);
        Kyma free = kyma("quiet", "free", 2, 18);
        List.of(held, free).forEach(k -> admission.changed(null, k));
        assertThat(admission.due()).containsExactly(new ResourceID("free", "quiet"));
        assertThat(admission.admit(held, 18, false)).contains(new Admission.Place(0, T0));
        assertThat(admission.admit(free, 18, false)).isEmpty();

        backlogs.put("crowded", 0);
        assertThat(admission.due()).containsExactly(new ResourceID("held", "crowded"));
    }

    @Test
    void withinANamespaceTheOldestGoesFirstAndEachNamespaceFillsItsOwnRoom() {
        Admission admission = admission(18);
        Kyma a1 = kyma("a", "a1", 1, 18), a2 = kyma("a", "a2", 2, 18), b1 = kyma("b", "b1", 3, 18);
        List.of(b1, a2, a1).forEach(k -> admission.changed(null, k));
        assertThat(admission.due())
                .as("the oldest of each namespace: one Kyma fills a namespace's room")
                .containsExactlyInAnyOrder(new ResourceID("a1", "a"), new ResourceID("b1", "b"));
        assertThat(admission.admit(a2, 18, false)).as("a1 is older").contains(new Admission.Place(1, T0));
    }

    private static Kyma kyma(String name, int createdSecond, int modules) {
        return kyma("ns", name, createdSecond, modules);
    }

    private static Kyma kyma(String namespace, String name, int createdSecond, int modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(namespace)
                .withUid("uid-" + name)
                .withCreationTimestamp(T0.plusSeconds(createdSecond).toString())
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec()
                .setModules(IntStream.range(0, modules)
                        .mapToObj(i -> new Module("m" + i, null))
                        .toList());
        return kyma;
    }
}
