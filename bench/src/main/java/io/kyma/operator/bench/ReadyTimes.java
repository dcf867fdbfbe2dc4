package io.kyma.operator.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.Kyma;

/**
 * Each Kyma's time from its creation to its {@code Ready}, from its own timestamps (creation and the Ready
 * condition's last transition, both of one-second resolution), in the order the operator admits them: by creation
 * time, then name.
 */
record ReadyTimes(List<Entry> kymas) {
    record Entry(String name, Instant created, Instant ready) {
        double seconds() {
            return Duration.between(created, ready).toMillis() / 1000.0;
        }
    }

    /** The Kymas that are Ready, but for those named in {@code skip}. */
    static ReadyTimes of(List<Kyma> kymas, String skip) {
        return new ReadyTimes(kymas.stream()
                .filter(k -> !k.getMetadata().getName().equals(skip))
                .flatMap(k -> readySince(k)
                        .map(at -> new Entry(
                                k.getMetadata().getName(),
                                Instant.parse(k.getMetadata().getCreationTimestamp()),
                                at))
                        .stream())
                .sorted(Comparator.comparing(Entry::created).thenComparing(Entry::name))
                .toList());
    }

    private static Optional<Instant> readySince(Kyma kyma) {
        if (kyma.getStatus() == null || kyma.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return kyma.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                .map(Condition::getLastTransitionTime)
                .findFirst()
                .map(Instant::parse);
    }

    /** The nearest-rank percentile of the times to Ready, {@code q} in (0, 1]. */
    double percentile(double q) {
        double[] sorted = kymas.stream().mapToDouble(Entry::seconds).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    double mean() {
        return kymas.stream().mapToDouble(Entry::seconds).average().orElse(Double.NaN);
    }

    /** The mean time to Ready of the {@code tenth}-th tenth (0 to 9) of the Kymas in order of creation. */
    double meanOfTenth(int tenth) {
        int size = kymas.size();
        return kymas.subList(size * tenth / 10, Math.max(size * tenth / 10 + 1, size * (tenth + 1) / 10)).stream()
                .mapToDouble(Entry::seconds)
                .average()
                .orElse(Double.NaN);
    }

    double first() {
        return kymas.stream().mapToDouble(Entry::seconds).min().orElse(Double.NaN);
    }

    /** The entries of a {@link #csv()} written before, in its order. */
    static ReadyTimes parse(String text) {
        Csv csv = Csv.parse(text);
        int name = csv.column("name");
        int created = csv.column("created");
        int ready = csv.column("ready");
        return new ReadyTimes(csv.rows().stream()
                .map(cells -> new Entry(cells[name], Instant.parse(cells[created]), Instant.parse(cells[ready])))
                .toList());
    }

    String csv() {
        StringBuilder out = new StringBuilder("order,name,created,ready,seconds\n");
        for (int i = 0; i < kymas.size(); i++) {
            Entry e = kymas.get(i);
            out.append(
                    String.format(Locale.ROOT, "%d,%s,%s,%s,%.0f%n", i, e.name(), e.created(), e.ready(), e.seconds()));
        }
        return out.toString();
    }
}
