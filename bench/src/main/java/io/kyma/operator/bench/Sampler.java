package io.kyma.operator.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToDoubleFunction;

/**
 * Once a second: components by state, Kymas by phase, queue depth, operator RSS, API writes per second, and the running
 * counts of write conflicts and informer lists (so a run shows when its conflicts fall against its relists).
 */
final class Sampler {
    static final List<String> STATES = List.of("pending", "started", "failing", "retrying", "success");
    static final List<String> PHASES = List.of("Processing", "Ready", "Error", "Deleting");

    record Row(
            double seconds,
            double[] components,
            double[] kymas,
            double queueDepth,
            double rssMiB,
            double writesPerSecond,
            double temporaryCache,
            double conflicts,
            double informerLists) {
        double watchedObjects() {
            double total = 0;
            for (double c : components) {
                total += c;
            }
            for (double k : kymas) {
                total += k;
            }
            return total;
        }
    }

    private final OperatorUnderTest operator;
    private final List<Row> rows = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final long start = System.nanoTime();
    private volatile double lastWrites = -1;
    private volatile double lastReady;
    private volatile double maxDepth;
    private volatile double maxTemporaryCache;

    Sampler(OperatorUnderTest operator, int expected) {
        this.operator = operator;
    }

    void start() {
        timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    void stop() throws InterruptedException {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        sample();
    }

    private synchronized void sample() {
        try {
            PromText m = operator.scrape();
            double[] components = STATES.stream()
                    .mapToDouble(s -> m.sum("kyma_operator_helmcomponents", l -> s.equals(l.get("state"))))
                    .toArray();
            double[] kymas = PHASES.stream()
                    .mapToDouble(p -> m.sum("kyma_operator_kymas", l -> p.equals(l.get("phase"))))
                    .toArray();
            double depth = m.sum("workqueue_depth");
            double writes = m.sum("rest_client_requests_total", l -> !"GET".equals(l.get("method")));
            double perSecond = lastWrites < 0 ? 0 : writes - lastWrites;
            lastWrites = writes;
            lastReady = kymas[1];
            maxDepth = Math.max(maxDepth, depth);
            // write answers held for read after write, by the controllers and by JOSDK on their behalf
            double temporaryCache = m.sum("kyma_operator_temporary_cache_entries");
            maxTemporaryCache = Math.max(maxTemporaryCache, temporaryCache);
            rows.add(new Row(
                    (System.nanoTime() - start) / 1e9,
                    components,
                    kymas,
                    depth,
                    operator.rssMiB(),
                    perSecond,
                    temporaryCache,
                    m.sum("kyma_operator_reconcile_conflicts_total"),
                    m.sum("kyma_operator_informer_lists_total")));
        } catch (Exception e) {
            // a missed second is no reason to stop measuring
        }
    }

    double lastReady() {
        return lastReady;
    }

    double maxQueueDepth() {
        return maxDepth;
    }

    double maxTemporaryCache() {
        return maxTemporaryCache;
    }

    /** The objects the operator watched at the last sample. */
    double lastWatched() {
        return rows.isEmpty() ? 0 : rows.get(rows.size() - 1).watchedObjects();
    }

    List<Row> rows() {
        return rows;
    }

    /**
     * The rows of a {@link #csv()} written before, its columns found by name: those the charts draw must be there, any
     * other an older run did not write reads as 0.
     */
    static List<Row> parse(String text) {
        Csv csv = Csv.parse(text);
        int seconds = csv.column("seconds");
        int rss = csv.column("operator_rss_mib");
        int[] components =
                STATES.stream().mapToInt(s -> csv.column("components_" + s)).toArray();
        int[] kymas = PHASES.stream()
                .mapToInt(p -> p.equals("Ready")
                        ? csv.column("kymas_ready")
                        : csv.optionalColumn("kymas_" + p.toLowerCase(Locale.ROOT)))
                .toArray();
        int depth = csv.optionalColumn("queue_depth");
        int writes = csv.optionalColumn("api_writes_per_s");
        int temporary = csv.optionalColumn("temporary_cache");
        int conflicts = csv.optionalColumn("conflicts");
        int lists = csv.optionalColumn("informer_lists");
        return csv.rows().stream()
                .map(cells -> {
                    IntToDoubleFunction cell = at -> at < 0 ? 0 : Double.parseDouble(cells[at]);
                    return new Row(
                            cell.applyAsDouble(seconds),
                            Arrays.stream(components).mapToDouble(cell).toArray(),
                            Arrays.stream(kymas).mapToDouble(cell).toArray(),
                            cell.applyAsDouble(depth),
                            cell.applyAsDouble(rss),
                            cell.applyAsDouble(writes),
                            cell.applyAsDouble(temporary),
                            cell.applyAsDouble(conflicts),
                            cell.applyAsDouble(lists));
                })
                .toList();
    }

    String csv() {
        StringBuilder out = new StringBuilder("seconds");
        STATES.forEach(s -> out.append(",components_").append(s));
        PHASES.forEach(p -> out.append(",kymas_").append(p.toLowerCase(Locale.ROOT)));
        out.append(",queue_depth,operator_rss_mib,api_writes_per_s,temporary_cache,conflicts,informer_lists\n");
        for (Row row : rows) {
            out.append(String.format(Locale.ROOT, "%.1f", row.seconds()));
            for (double c : row.components()) {
                out.append(',').append((long) c);
            }
            for (double k : row.kymas()) {
                out.append(',').append((long) k);
            }
            out.append(String.format(
                    Locale.ROOT,
                    ",%d,%.1f,%.0f,%d,%d,%d%n",
                    (long) row.queueDepth(),
                    row.rssMiB(),
                    row.writesPerSecond(),
                    (long) row.temporaryCache(),
                    (long) row.conflicts(),
                    (long) row.informerLists()));
        }
        return out.toString();
    }
}
