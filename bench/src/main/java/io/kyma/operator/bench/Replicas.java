package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The replicas of a sharded operator, each its own process with {@code --shards K --shard-id i}, measured together:
 * metrics, RSS, CPU and live heap are sums over the replicas (what the fleet costs), the peak RSS is the largest
 * replica's (what one pod must be sized for), and {@link #perReplica} gives each replica's share for the summary.
 */
final class Replicas implements OperatorUnderTest {
    private final List<OperatorProcess> replicas;
    /** Each replica's live heap in bytes at the last {@link #liveHeap}. */
    private final double[] lastLiveHeap;
    /** Each replica's live heap in bytes at the first look, before any object: the empty operator's. */
    private double[] emptyHeap;

    private Replicas(List<OperatorProcess> replicas) {
        this.replicas = List.copyOf(replicas);
        this.lastLiveHeap = new double[replicas.size()];
    }

    static Replicas start(BenchOptions options, ClusterUnderTest cluster) throws IOException, InterruptedException {
        List<OperatorProcess> started = new ArrayList<>();
        try {
            for (int i = 0; i < options.shards(); i++) {
                started.add(OperatorProcess.start(
                        options,
                        cluster,
                        "-" + i,
                        List.of("--shards", Integer.toString(options.shards()), "--shard-id", Integer.toString(i))));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            for (OperatorProcess replica : started) {
                replica.close();
            }
            throw e;
        }
        return new Replicas(started);
    }

    /**
     * Adds each replica's share to a summary, in shard order joined with "/": {@code shards}, {@code
     * replica_peak_rss_mb}, {@code replica_heap_mb} (the live heap at the last {@link #liveHeap}),
     * {@code replica_empty_heap_mb} (the live heap before any object, with {@code --heap-probes}; else n/a),
     * {@code replica_cpu_s} and {@code replica_writes} (its successful writes since it started).
     */
    void describe(Map<String, String> summary) throws IOException, InterruptedException {
        summary.put("shards", Integer.toString(replicas.size()));
        summary.put("replica_peak_rss_mb", perReplica(OperatorProcess::peakRssMiB, "%.1f"));
        List<String> heaps = new ArrayList<>();
        for (double bytes : lastLiveHeap) {
            heaps.add(String.format(Locale.ROOT, "%.1f", bytes / (1 << 20)));
        }
        summary.put("replica_heap_mb", String.join("/", heaps));
        summary.put(
                "replica_empty_heap_mb",
                emptyHeap == null
                        ? "n/a"
                        : Arrays.stream(emptyHeap)
                                .mapToObj(b -> String.format(Locale.ROOT, "%.1f", b / (1 << 20)))
                                .collect(Collectors.joining("/")));
        summary.put("replica_cpu_s", perReplica(OperatorProcess::cpuSeconds, "%.1f"));
        summary.put(
                "replica_writes",
                perReplica(
                        r -> r.scrape()
                                .sum(
                                        "rest_client_requests_total",
                                        l -> !"GET".equals(l.get("method"))
                                                && l.getOrDefault("code", "").startsWith("2")),
                        "%.0f"));
    }

    private String perReplica(Measure what, String format) throws IOException, InterruptedException {
        List<String> values = new ArrayList<>();
        for (OperatorProcess replica : replicas) {
            values.add(String.format(Locale.ROOT, format, what.of(replica)));
        }
        return String.join("/", values);
    }

    /** One figure of one replica. */
    private interface Measure {
        double of(OperatorProcess replica) throws IOException, InterruptedException;
    }

    @Override
    public PromText scrape() throws IOException, InterruptedException {
        List<PromText.Sample> all = new ArrayList<>();
        for (OperatorProcess replica : replicas) {
            all.addAll(replica.scrape().samples());
        }
        return new PromText(all);
    }

    /** The first replica's: the bench samples one process's sockets. */
    @Override
    public long pid() {
        return replicas.get(0).pid();
    }

    @Override
    public double rssMiB() {
        return replicas.stream().mapToDouble(OperatorProcess::rssMiB).sum();
    }

    @Override
    public double settledRssMiB() throws InterruptedException {
        double sum = 0;
        for (OperatorProcess replica : replicas) {
            sum += replica.settledRssMiB();
        }
        return sum;
    }

    /** The largest replica's peak. */
    @Override
    public double peakRssMiB() {
        return replicas.stream().mapToDouble(OperatorProcess::peakRssMiB).max().orElse(0);
    }

    @Override
    public double cpuSeconds() {
        return replicas.stream().mapToDouble(OperatorProcess::cpuSeconds).sum();
    }

    @Override
    public double heapAfterFullGc() throws IOException, InterruptedException {
        double[] each = new double[replicas.size()];
        for (int i = 0; i < each.length; i++) {
            each[i] = replicas.get(i).heapAfterFullGc();
        }
        if (emptyHeap == null) {
            emptyHeap = each;
        }
        return Arrays.stream(each).sum();
    }

    /** The live heaps added up, and each replica's histogram under its shard's heading. */
    @Override
    public OperatorProcess.LiveHeap liveHeap(int lines) throws IOException, InterruptedException {
        double bytes = 0;
        StringBuilder histograms = new StringBuilder();
        for (int i = 0; i < replicas.size(); i++) {
            OperatorProcess.LiveHeap live = replicas.get(i).liveHeap(lines);
            lastLiveHeap[i] = live.bytes();
            bytes += live.bytes();
            histograms
                    .append("shard ")
                    .append(i)
                    .append(":\n")
                    .append(live.histogram())
                    .append('\n');
        }
        return new OperatorProcess.LiveHeap(bytes, histograms.toString());
    }

    @Override
    public String nativeMemory() {
        throw new UnsupportedOperationException("native-memory tracking is measured for one operator process only");
    }

    @Override
    public void heapDump(Path file) {
        throw new UnsupportedOperationException("heap dumps are taken of one operator process only");
    }

    @Override
    public void startRecording() {
        throw new UnsupportedOperationException("profiles are recorded of one operator process only");
    }

    @Override
    public JfrProfile stopRecording(Path file) {
        throw new UnsupportedOperationException("profiles are recorded of one operator process only");
    }

    @Override
    public List<WatchCloses.Pause> pauses() {
        return replicas.stream().flatMap(r -> r.pauses().stream()).collect(Collectors.toList());
    }

    @Override
    public List<Path> gcLogs() {
        return replicas.stream().flatMap(r -> r.gcLogs().stream()).toList();
    }

    @Override
    public void close() throws InterruptedException {
        for (OperatorProcess replica : replicas) {
            replica.close();
        }
    }
}
