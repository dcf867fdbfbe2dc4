package io.kyma.operator.manager.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.manager.limits.FairShares;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * What a person watching the Kymas wants to see: how long each took to become Ready (a histogram, observed when the
 * watch shows a Kyma turn Ready) and which Kymas have waited longest without being Ready (the ten oldest of each phase,
 * by name, so that the number of series stays bounded however many Kymas there are).
 */
public final class KymaProgress {
    /** How many of the oldest Kymas of each phase that are not Ready are exported by name. */
    public static final int SLOWEST = 10;

    private static final String READY = "Ready";

    private record Unready(String namespace, String name, Instant created, String phase) {}

    private final Clock clock;
    private final Timer timeToReady;
    private final MultiGauge slowest;
    private final Map<String, Unready> unready = new ConcurrentHashMap<>();

    public KymaProgress(SharedStore<Kyma> kymas, Clock clock, OperatorMetrics metrics) {
        this.clock = clock;
        this.timeToReady = metrics.kymaTimeToReady();
        this.slowest = MultiGauge.builder("kyma_operator_unready_kymas_age_seconds")
                .description("Seconds since creation of the " + SLOWEST + " oldest Kymas of each phase that are not"
                        + " Ready, shared fairly between namespaces")
                .register(metrics.registry());
        kymas.onChange(this::changed);
        metrics.beforeScrape(this::refresh);
    }

    void changed(Kyma before, Kyma after) {
        Kyma any = after != null ? after : before;
        String key = any.getMetadata().getNamespace() + "/" + any.getMetadata().getName();
        if (after == null) {
            unready.remove(key);
            return;
        }
        Instant created = created(after);
        if (!ready(after)) {
            if (created != null) {
                unready.put(
                        key,
                        new Unready(
                                after.getMetadata().getNamespace(),
                                after.getMetadata().getName(),
                                created,
                                phase(after)));
            }
            return;
        }
        unready.remove(key);
        if (before != null && !ready(before) && created != null) {
            readySince(after)
                    .ifPresent(at -> timeToReady.record(
                            Duration.between(created, at).isNegative()
                                    ? Duration.ZERO
                                    : Duration.between(created, at)));
        }
    }

    /**
     * The oldest Kymas that are not Ready, oldest first: at most {@link #SLOWEST} of each phase, shared max-min fairly
     * between namespaces, so that one namespace's old Kymas (in Error, say) cannot hide another namespace's Kyma
     * stuck in Processing from the alert.
     */
    List<Map.Entry<Tags, Double>> slowest() {
        Instant now = clock.instant();
        Comparator<Unready> oldestFirst = Comparator.comparing(Unready::created)
                .thenComparing(Unready::namespace)
                .thenComparing(Unready::name);
        Map<String, Map<String, List<Unready>>> byPhase = new TreeMap<>();
        unready.values()
                .forEach(u -> byPhase.computeIfAbsent(u.phase(), p -> new TreeMap<>())
                        .computeIfAbsent(u.namespace(), n -> new ArrayList<>())
                        .add(u));
        List<Unready> shown = new ArrayList<>();
        for (Map<String, List<Unready>> byNamespace : byPhase.values()) {
            Map<String, Integer> counts = new HashMap<>();
            byNamespace.forEach((ns, list) -> counts.put(ns, list.size()));
            // with more namespaces than places, those whose oldest Kyma is oldest come first
            List<String> oldestFirstNamespaces = byNamespace.entrySet().stream()
                    .sorted(Comparator.comparing(
                            e -> e.getValue().stream().min(oldestFirst).orElseThrow(), oldestFirst))
                    .map(Map.Entry::getKey)
                    .toList();
            Map<String, Integer> shares = FairShares.maxMin(counts, SLOWEST, oldestFirstNamespaces);
            byNamespace.forEach((ns, list) ->
                    list.stream().sorted(oldestFirst).limit(shares.get(ns)).forEach(shown::add));
        }
        return shown.stream()
                .sorted(oldestFirst)
                .map(u -> Map.entry(
                        Tags.of("kyma_namespace", u.namespace(), "kyma", u.name(), "phase", u.phase()),
                        Math.max(0, Duration.between(u.created(), now).toMillis() / 1000.0)))
                .toList();
    }

    void refresh() {
        slowest.register(
                slowest().stream()
                        .map(e -> MultiGauge.Row.of(e.getKey(), e.getValue()))
                        .toList(),
                true);
    }

    private static boolean ready(Kyma kyma) {
        return kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
    }

    private static String phase(Kyma kyma) {
        return kyma.getStatus() == null || kyma.getStatus().getPhase() == null
                ? "New"
                : kyma.getStatus().getPhase().toString();
    }

    private static Instant created(Kyma kyma) {
        try {
            return Instant.parse(kyma.getMetadata().getCreationTimestamp());
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Optional<Instant> readySince(Kyma kyma) {
        return kyma.getStatus().getConditions().stream()
                .filter(c -> READY.equals(c.getType()) && "True".equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .filter(t -> t != null)
                .findFirst()
                .flatMap(t -> {
                    try {
                        return Optional.of(Instant.parse(t));
                    } catch (RuntimeException e) {
                        return Optional.empty();
                    }
                });
    }
}
