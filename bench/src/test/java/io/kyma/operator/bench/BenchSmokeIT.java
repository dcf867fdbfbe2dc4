package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small run of the real harness (N = 20, unit 10 ms) keeps it working: its outputs exist and parse. */
class BenchSmokeIT {
    private static final List<String> SUMMARY_KEYS = List.of(
            "n",
            "unit",
            "t1_s",
            "tn_s",
            "ideal_s",
            "ratio",
            "ceiling_writes_per_s",
            "apiserver_ceiling_writes_per_s",
            "apiserver_ideal_s",
            "apiserver_ratio",
            "client_qps",
            "writes_per_kyma",
            "max_queue_depth",
            "peak_rss_mb",
            "heap_bytes_per_object",
            "watch_closes",
            "watch_closes_in_probes",
            "gc_young",
            "gc_full",
            "gc_stopped_s",
            "gc_full_max_ms",
            "relists",
            "watch_restarts",
            "reconcile_errors",
            "conflicts",
            "empty_rss_mb",
            "ready_rss_mb",
            "temp_cache_max",
            "first_ready_s",
            "p50_ready_s",
            "p99_ready_s",
            "mean_ready_s",
            "cpu_ms_per_write",
            "apiserver_cpu_ms_per_write",
            "cpu_operator_load_s",
            "induced_gcs",
            "heap_returns",
            "ceiling_gcs",
            "idle_rss_mb",
            "rss_after_burst_mb");
    /** Percentiles of histograms: the range of the bucket they fall in. */
    private static final List<String> RANGE_KEYS = List.of("p50_queue_wait_s", "p99_queue_wait_s", "p99_lateness_s");

    @Test
    void aSmallRunWritesTheSummaryTheReportTheTimeSeriesAndTheCharts(@TempDir Path out) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Result result = new Bench(BenchOptions.parse(new String[] {
                    "--n",
                    "20",
                    "--unit",
                    "10ms",
                    "--after-burst",
                    "1s",
                    "--out",
                    out.toString(),
                    "--repository",
                    Path.of("..").toAbsolutePath().normalize().toString()
                }))
                .run();
        String line = result.summaryLine();
        System.out.println(line);
        Map<String, String> summary = Arrays.stream(line.split(" "))
                .map(kv -> kv.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        assertThat(summary).containsKeys(SUMMARY_KEYS.toArray(String[]::new));
        assertThat(summary).containsKeys(RANGE_KEYS.toArray(String[]::new));
        // what a deployment sees: nothing outside the operator asked for a collection before every RSS figure
        assertThat(summary.get("heap_probes")).isEqualTo("off");
        assertThat(summary.get("induced_gcs")).isEqualTo("0");
        assertThat(summary.get("heap_growth_bytes_per_object")).isEqualTo("n/a");
        for (String key : RANGE_KEYS) {
            assertThat(summary.get(key)).as(key).matches("[0-9.]+\\.\\.[0-9.]+|>[0-9.]+");
        }
        assertThat(Files.readAllLines(out.resolve("ready-times.csv")))
                .as("a header and each of the 20 Kymas")
                .hasSize(21);
        assertThat(Double.parseDouble(summary.get("p50_ready_s")))
                .isLessThanOrEqualTo(Double.parseDouble(summary.get("p99_ready_s")));
        assertThat(summary.get("n")).isEqualTo("20");
        for (String key : SUMMARY_KEYS) {
            if (!key.equals("unit")) {
                assertThat(Double.parseDouble(summary.get(key))).as(key).isGreaterThanOrEqualTo(0);
            }
        }
        // the operator's default client QPS bounds the ceiling T*(N) is taken against, the API server's does not
        assertThat(Double.parseDouble(summary.get("client_qps"))).isEqualTo(250);
        assertThat(Double.parseDouble(summary.get("ceiling_writes_per_s")))
                .isEqualTo(Math.min(250, Double.parseDouble(summary.get("apiserver_ceiling_writes_per_s"))));
        assertThat(Double.parseDouble(summary.get("apiserver_ratio")))
                .isGreaterThanOrEqualTo(Double.parseDouble(summary.get("ratio")));
        assertThat(Double.parseDouble(summary.get("writes_per_kyma")))
                .as("18 creates and 90 status writes at least")
                .isGreaterThanOrEqualTo(108);
        assertThat(Double.parseDouble(summary.get("heap_mb")))
                .as("the heap read through jcmd")
                .isPositive();
        assertThat(Files.readString(out.resolve("heap-histogram.txt"))).contains("io.kyma.operator.api.HelmComponent");

        assertThat(Files.readString(out.resolve("report.md"))).contains(line, "## Verdict", "progress.png");
        List<String> csv = Files.readAllLines(out.resolve("timeseries.csv"));
        assertThat(csv.get(0))
                .startsWith("seconds,components_pending")
                .contains("queue_depth", "operator_rss_mib", "api_writes_per_s");
        assertThat(csv).hasSizeGreaterThan(2);
        int columns = csv.get(0).split(",").length;
        assertThat(csv).allSatisfy(row -> assertThat(row.split(",")).hasSize(columns));
        List<String> curve = Files.readAllLines(out.resolve("heap-by-objects.csv"));
        assertThat(curve.get(0)).isEqualTo("watched_objects,operator_rss_mib,live_heap_mib");
        assertThat(curve)
                .as("without --heap-probes: only the point after the load")
                .hasSize(2);
        assertThat(out.resolve("heap-histogram-peak.txt")).doesNotExist();
        for (String key : List.of("unread_kb_before_closes", "apiserver_unread_kb_before_closes")) {
            assertThat(summary.get(key)).as(key + ": n/a without closes").matches("n/a|[0-9]+\\.[0-9]");
        }
        // the operator's default: watch messages decoded by the socket's reader, no read-ahead
        List<String> backlog = Files.readAllLines(out.resolve("socket-backlog.csv"));
        assertThat(backlog.get(0)).isEqualTo("seconds,operator_unread_bytes,apiserver_unread_bytes");
        assertThat(backlog).as("four samples a second through the load").hasSizeGreaterThan(4);
        List<String> lateness = Files.readAllLines(out.resolve("lateness.csv"));
        assertThat(lateness.get(0)).isEqualTo("bucket_s,transitions");
        assertThat(lateness.stream()
                        .skip(1)
                        .mapToLong(row -> Long.parseLong(row.split(",")[1]))
                        .sum())
                .as("four timed transitions of each of the 20 Kymas' 18 components at least")
                .isGreaterThanOrEqualTo(20 * 18 * 4);
        for (String chart : List.of("progress.png", "memory.png", "ready.png", "lateness.png")) {
            BufferedImage image = ImageIO.read(out.resolve(chart).toFile());
            assertThat(image).as(chart).isNotNull();
            assertThat(image.getWidth()).isEqualTo(1000);
        }
    }

    @Test
    void aShardedRunMeasuresEachReplicaAndTheirSum(@TempDir Path out) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Result result = new Bench(BenchOptions.parse(new String[] {
                    "--n",
                    "20",
                    "--unit",
                    "10ms",
                    "--shards",
                    "2",
                    "--heap-probes",
                    "--after-burst",
                    "1s",
                    "--out",
                    out.toString(),
                    "--repository",
                    Path.of("..").toAbsolutePath().normalize().toString()
                }))
                .run();
        String line = result.summaryLine();
        System.out.println(line);
        Map<String, String> summary = Arrays.stream(line.split(" "))
                .map(kv -> kv.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
        assertThat(summary).containsKeys(SUMMARY_KEYS.toArray(String[]::new));
        assertThat(summary.get("shards")).isEqualTo("2");
        // with --heap-probes: the live heap weighed before the load and at every tenth of it, each a collection
        assertThat(summary.get("heap_probes")).isEqualTo("on");
        assertThat(Long.parseLong(summary.get("induced_gcs"))).isPositive();
        assertThat(Files.readAllLines(out.resolve("heap-by-objects.csv")))
                .as("empty, after T(1), and after the load at least")
                .hasSizeGreaterThanOrEqualTo(4);
        for (String key : List.of(
                "replica_peak_rss_mb", "replica_heap_mb", "replica_empty_heap_mb", "replica_cpu_s", "replica_writes")) {
            assertThat(summary.get(key).split("/"))
                    .as(key + ": one figure per replica")
                    .hasSize(2)
                    .allSatisfy(v -> assertThat(Double.parseDouble(v)).as(key).isPositive());
        }
        double[] writes = Arrays.stream(summary.get("replica_writes").split("/"))
                .mapToDouble(Double::parseDouble)
                .toArray();
        assertThat(writes[0] + writes[1])
                .as("both replicas' writes are the run's")
                .isGreaterThanOrEqualTo(Double.parseDouble(summary.get("writes_per_kyma")) * 20);
        double[] peaks = Arrays.stream(summary.get("replica_peak_rss_mb").split("/"))
                .mapToDouble(Double::parseDouble)
                .toArray();
        assertThat(Double.parseDouble(summary.get("peak_rss_mb")))
                .as("the largest replica's peak")
                .isEqualTo(Math.max(peaks[0], peaks[1]), Offset.offset(0.05));
        assertThat(Files.readAllLines(out.resolve("ready-times.csv"))).hasSize(21);
        assertThat(out.resolve("operator-0.log")).exists();
        assertThat(out.resolve("operator-gc-1.log")).exists();
        assertThat(Files.readString(out.resolve("heap-histogram.txt"))).contains("shard 0:", "shard 1:");
        assertThat(Files.readString(out.resolve("report.md"))).contains("2 operator replicas");
    }
}
