package io.kyma.operator.manager.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.MutableClock;
import io.micrometer.core.instrument.Tags;

class KymaProgressTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final MutableClock clock = new MutableClock(T0);
    private final OperatorMetrics metrics = new OperatorMetrics();
    private final SharedStore<Kyma> store =
            new SharedStore<>(null, new BasicItemStore<>(Cache::metaNamespaceKeyFunc), 10);
    private final KymaProgress progress = new KymaProgress(store, clock, metrics);

    @Test
    void aKymaTurningReadyIsObservedOnceFromItsCreationToItsReadyCondition() {
        put(kyma("a", T0, null, null));
        put(kyma("a", T0, KymaPhase.PROCESSING, null));
        put(kyma("a", T0, KymaPhase.READY, T0.plusSeconds(42)));
        put(kyma("a", T0, KymaPhase.READY, T0.plusSeconds(42))); // a resync: still Ready, not observed again
        assertThat(metrics.kymaTimeToReady().count()).isEqualTo(1);
        assertThat(metrics.kymaTimeToReady().totalTime(TimeUnit.SECONDS)).isEqualTo(42);
    }

    @Test
    void aKymaAlreadyReadyWhenFirstSeenIsNotObserved() {
        put(kyma("listed", T0, KymaPhase.READY, T0.plusSeconds(5))); // the initial list after a restart
        assertThat(metrics.kymaTimeToReady().count()).isZero();
    }

    @Test
    void theSlowestAreTheTenOldestNotReadyOfEachPhaseWithTheirAge() {
        for (int i = 0; i < 24; i++) {
            put(kyma("k" + i, T0.plusSeconds(i), i < 12 ? KymaPhase.PROCESSING : KymaPhase.PENDING, null));
        }
        put(kyma("k0", T0, KymaPhase.READY, T0.plusSeconds(30)));
        clock.advance(Duration.ofSeconds(100));
        List<Map.Entry<Tags, Double>> slowest = progress.slowest();
        assertThat(slowest).hasSize(2 * KymaProgress.SLOWEST);
        assertThat(slowest.get(0).getKey().stream()
                        .map(t -> t.getKey() + "=" + t.getValue())
                        .toList())
                .containsExactly("kyma=k1", "kyma_namespace=ns", "phase=Processing");
        assertThat(slowest.get(0).getValue()).isEqualTo(99.0);
        assertThat(slowest)
                .filteredOn(e -> e.getKey().stream().anyMatch(t -> t.getValue().equals("Processing")))
                .hasSize(KymaProgress.SLOWEST)
                .last()
                .satisfies(e -> assertThat(e.getValue()).isEqualTo(90.0));
    }

    @Test
    void withMoreNamespacesThanPlacesTheOldestKymasAreShown() {
        for (int i = 0; i < 10; i++) {
            Kyma young = kyma("young", T0.plusSeconds(3600), KymaPhase.PROCESSING, null);
            young.getMetadata().setNamespace("team-" + i);
            put(young);
        }
        Kyma stuck = kyma("stuck", T0, KymaPhase.PROCESSING, null);
        stuck.getMetadata().setNamespace("team-z");
        put(stuck);
        clock.advance(Duration.ofHours(2));
        assertThat(progress.slowest())
                .hasSize(KymaProgress.SLOWEST)
                .first()
                .satisfies(e -> assertThat(e.getValue()).isEqualTo(7200.0));
    }

    @Test
    void oneNamespacesOldKymasCannotHideAnothersStuckOneFromTheAlert() {
        for (int i = 0; i < 30; i++) {
            Kyma old = kyma("noisy-" + i, T0.plusSeconds(i), KymaPhase.PROCESSING, null);
            old.getMetadata().setNamespace("noisy");
            put(old);
        }
        Kyma stuck = kyma("stuck", T0.plusSeconds(60), KymaPhase.PROCESSING, null);
        stuck.getMetadata().setNamespace("quiet");
        put(stuck);
        clock.advance(Duration.ofSeconds(100));
        assertThat(progress.slowest())
                .hasSize(KymaProgress.SLOWEST)
                .anySatisfy(e -> assertThat(e.getKey().stream()
                                .map(t -> t.getKey() + "=" + t.getValue())
                                .toList())
                        .containsExactly("kyma=stuck", "kyma_namespace=quiet", "phase=Processing"));
    }

    @Test
    void aScrapeShowsOnlyTheCurrentSlowest() {
        put(kyma("a", T0, KymaPhase.PROCESSING, null));
        clock.advance(Duration.ofSeconds(7));
        assertThat(metrics.scrape()).contains("kyma_operator_unready_kymas_age_seconds{kyma=\"a\"");
        put(kyma("a", T0, KymaPhase.READY, T0.plusSeconds(7)));
        assertThat(metrics.scrape()).doesNotContain("kyma_operator_unready_kymas_age_seconds{");
        store.remove("ns/a");
        assertThat(progress.slowest()).isEmpty();
    }

    private void put(Kyma kyma) {
        store.put(Cache.metaNamespaceKeyFunc(kyma), kyma);
    }

    private static Kyma kyma(String name, Instant created, KymaPhase phase, Instant readySince) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("ns")
                .withName(name)
                .withCreationTimestamp(created.toString())
                .build());
        if (phase != null) {
            KymaStatus status = new KymaStatus();
            status.setPhase(phase);
            if (readySince != null) {
                status.getConditions()
                        .add(new ConditionBuilder()
                                .withType("Ready")
                                .withStatus("True")
                                .withLastTransitionTime(readySince.toString())
                                .build());
            }
            kyma.setStatus(status);
        }
        return kyma;
    }
}
