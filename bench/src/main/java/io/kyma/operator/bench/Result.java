package io.kyma.operator.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.kyma.operator.common.GoDuration;

/** The benchmark's figures, as the one-line summary and as report.md. */
record Result(
        Map<String, String> summary,
        Map<String, Double> writesByVerb,
        Map<String, Double> writesByResource,
        Map<String, Double> apiserverByVerbAndCode,
        Map<String, Double> operatorByMethodAndCode) {

    static Result compute(
            BenchOptions options,
            Bench.Ceiling ceiling,
            double t1,
            double tn,
            Sampler sampler,
            PromText opBefore,
            PromText opAfter,
            PromText apiBefore,
            PromText apiAfter,
            double heapBeforeBytes,
            double heapBytes,
            double peakRss,
            double operatorCpu,
            Map<String, Double> clusterCpu,
            Bench.LoadCpu loadCpu,
            Optional<WatchCloses.Count> watchCloses,
            GcLog.Summary gc,
            Bench.EmptyOperator empty,
            ReadyTimes ready,
            double arrivalRate) {
        int n = options.n();
        Map<String, Double> byMethod = Bench.byLabel(
                opBefore,
                opAfter,
                "rest_client_requests_total",
                "method",
                l -> !"GET".equals(l.get("method"))
                        && l.getOrDefault("code", "").startsWith("2"));
        double writes =
                byMethod.values().stream().mapToDouble(Double::doubleValue).sum();
        double writesPerKyma = writes / n;
        double ideal = Math.max(t1, n * writesPerKyma / ceiling.writesPerSecond());
        double apiserverIdeal = Math.max(t1, n * writesPerKyma / ceiling.apiserverWritesPerSecond());
        Map<String, Double> byResource = Bench.byLabel(
                apiBefore,
                apiAfter,
                "apiserver_request_total",
                "resource",
                l -> isWrite(l.get("verb")) && "inventory.kyma-project.io".equals(l.get("group")));
        Map<String, Double> apiByVerbCode = new TreeMap<>();
        for (PromText.Sample s : apiAfter.samples()) {
            if (s.name().equals("apiserver_request_total")) {
                apiByVerbCode.merge(verbResourceCode(s.labels()), s.value(), Double::sum);
            }
        }
        for (PromText.Sample s : apiBefore.samples()) {
            if (s.name().equals("apiserver_request_total")) {
                apiByVerbCode.merge(verbResourceCode(s.labels()), -s.value(), Double::sum);
            }
        }
        apiByVerbCode.values().removeIf(v -> v == 0);
        Map<String, Double> opByMethodCode = new TreeMap<>();
        for (PromText.Sample s : opAfter.samples()) {
            if (s.name().equals("rest_client_requests_total")) {
                opByMethodCode.merge(s.labels().get("method") + " " + s.labels().get("code"), s.value(), Double::sum);
            }
        }
        double queued = opAfter.sum("workqueue_queue_duration_seconds_count")
                - opBefore.sum("workqueue_queue_duration_seconds_count");
        var before = opBefore.buckets("workqueue_queue_duration_seconds");
        var after = opAfter.buckets("workqueue_queue_duration_seconds");
        double watched = (n + 1) * 19.0;
        // The whole run, T(1) included: every 409 the operator received, each retried by its reconcile guard.
        double conflicts = opAfter.sum("rest_client_requests_total", l -> "409".equals(l.get("code")));

        Map<String, String> summary = new LinkedHashMap<>();
        summary.put("n", Integer.toString(n));
        summary.put("unit", GoDuration.format(options.unit()));
        summary.put("t1_s", f1(t1));
        summary.put("tn_s", f1(tn));
        summary.put("ideal_s", f1(ideal));
        summary.put("ratio", String.format(Locale.ROOT, "%.3f", tn / ideal));
        // The same against the API server's own ceiling, as if the client had no QPS limit.
        summary.put("apiserver_ideal_s", f1(apiserverIdeal));
        summary.put("apiserver_ratio", String.format(Locale.ROOT, "%.3f", tn / apiserverIdeal));
        // What each user waits for: from a Kyma's creation to its Ready, by its own timestamps (whole seconds).
        summary.put("first_ready_s", f1(ready.first()));
        summary.put("p50_ready_s", f1(ready.percentile(0.5)));
        summary.put("p99_ready_s", f1(ready.percentile(0.99)));
        summary.put("mean_ready_s", f1(ready.mean()));
        if (options.apiserverWatchBuffer() > 0) {
            // not the release's API server: each watcher of a custom resource buffers this many events, not 10
            summary.put("apiserver_watch_buffer", Integer.toString(options.apiserverWatchBuffer()));
        }
        if (options.operatorNice() > 0) {
            summary.put("operator_nice", Integer.toString(options.operatorNice())); // the control plane's CPU first
        }
        if (arrivalRate > 0) {
            // Open loop: did the Kymas that came last wait longer than those that came first?
            summary.put("arrival_rate_per_s", String.format(Locale.ROOT, "%.3f", arrivalRate));
            summary.put("ready_first_tenth_s", f1(ready.meanOfTenth(0)));
            summary.put("ready_last_tenth_s", f1(ready.meanOfTenth(9)));
            summary.put("queue_grew", ready.meanOfTenth(9) > 1.1 * ready.meanOfTenth(0) ? "yes" : "no");
        }
        summary.put("ceiling_writes_per_s", f1(ceiling.writesPerSecond()));
        summary.put("apiserver_ceiling_writes_per_s", f1(ceiling.apiserverWritesPerSecond()));
        summary.put("client_qps", ceiling.clientQps() > 0 ? f1(ceiling.clientQps()) : "off");
        summary.put("ceiling_concurrency", Integer.toString(ceiling.concurrency()));
        // The operator's own write verb sets the ceiling; the API server's CPU per write of each verb, side by side.
        summary.put("ceiling_verb", StatusVerb.APPLY.name().toLowerCase(Locale.ROOT));
        ceiling.verbs().forEach((verb, cost) -> {
            String v = verb.name().toLowerCase(Locale.ROOT);
            summary.put(v + "_writes_per_s", f1(cost.writesPerSecond()));
            summary.put(
                    v + "_apiserver_cpu_ms_per_write",
                    Double.isNaN(cost.apiserverCpuMsPerWrite())
                            ? "n/a"
                            : String.format(Locale.ROOT, "%.3f", cost.apiserverCpuMsPerWrite()));
        });
        summary.put("writes_per_kyma", f1(writesPerKyma));
        // Percentiles of histograms as the range of the bucket they fall in, never interpolated inside it.
        summary.put("p50_queue_wait_s", PromText.bucketRange(0.5, before, after, queued));
        summary.put("p99_queue_wait_s", PromText.bucketRange(0.99, before, after, queued));
        summary.put(
                "p99_lateness_s",
                PromText.bucketRange(
                        0.99, opBefore.buckets(LATENESS), opAfter.buckets(LATENESS), transitions(opBefore, opAfter)));
        summary.put("max_queue_depth", Long.toString((long) sampler.maxQueueDepth()));
        summary.put("ready_rss_mb", f1(empty.readyRssMiB()));
        summary.put("empty_rss_mb", f1(empty.settledRssMiB()));
        summary.put("peak_rss_mb", f1(peakRss));
        summary.put("heap_mb", f1(heapBytes / (1 << 20)));
        summary.put("heap_bytes_per_object", Long.toString((long) (heapBytes / watched)));
        // The load's own share: the heap an empty operator already needs is not spread over the objects.
        // (weighing the heap before the load is a full collection: only with --heap-probes)
        summary.put(
                "heap_growth_bytes_per_object",
                Double.isNaN(heapBeforeBytes)
                        ? "n/a"
                        : Long.toString((long) ((heapBytes - heapBeforeBytes) / (watched - 19))));
        // After start-up: watchers the API server closed for not reading fast enough (from its log; "n/a" for a
        // cluster of --kubeconfig), of those the ones that fell in a full collection the bench forced to weigh the
        // live heap (or right after it), lists the operator's informers made again (a relist of every object of the
        // kind) and watches they had to start again.
        summary.put("watch_closes", watchCloses.map(c -> Long.toString(c.all())).orElse("n/a"));
        summary.put(
                "watch_closes_in_probes",
                watchCloses.map(c -> Long.toString(c.duringPauses())).orElse("n/a"));
        // Who was behind when they fell: the most bytes the operator left unread on one of its API-server sockets,
        // and the most bytes of the operator's requests the API server left unread, in the second before a close.
        summary.put(
                "unread_kb_before_closes",
                watchCloses.map(c -> kib(c.operatorUnreadBefore())).orElse("n/a"));
        summary.put(
                "apiserver_unread_kb_before_closes",
                watchCloses.map(c -> kib(c.apiserverUnreadBefore())).orElse("n/a"));
        // How far the operator's watch connections read ahead of their decoding (most characters waiting at once,
        // "off" with --watch-read-ahead 0) and how often one stopped reading because its allowance was full.
        // The operator's collections during the load: each stops every thread, the watch readers too.
        summary.put("gc_young", Long.toString(gc.young()));
        summary.put("gc_full", Long.toString(gc.full()));
        summary.put("gc_stopped_s", f1(gc.stoppedSeconds()));
        summary.put("gc_full_max_ms", Long.toString(Math.round(gc.longestFullMillis())));
        summary.put("relists", Long.toString((long) (opAfter.sum("kyma_operator_informer_lists_total")
                - opBefore.sum("kyma_operator_informer_lists_total"))));
        summary.put("watch_restarts", Long.toString((long)
                (opAfter.sum("kyma_operator_watch_starts_total") - opBefore.sum("kyma_operator_watch_starts_total"))));
        // The same for each kind: which watch the API server kept closing.
        for (String kind : List.of("kymas", "helmcomponents")) {
            Predicate<Map<String, String>> ofKind = labels -> kind.equals(labels.get("resource"));
            summary.put("watch_restarts_" + kind, Long.toString((long)
                    (opAfter.sum("kyma_operator_watch_starts_total", ofKind)
                            - opBefore.sum("kyma_operator_watch_starts_total", ofKind))));
        }
        // Most write answers held at once for read after write (JOSDK's temporary caches and the Kyma controller's
        // own creates), sampled each second.
        summary.put("temp_cache_max", Long.toString((long) sampler.maxTemporaryCache()));
        summary.put("reconcile_errors", Long.toString((long) opAfter.sum("controller_runtime_reconcile_errors_total")));
        summary.put("conflicts", Long.toString((long) conflicts));
        // Reconciles of the load per Kyma, by controller: what each write costs beyond itself
        for (String controller : List.of("kyma", "helmcomponent")) {
            Predicate<Map<String, String>> of = labels -> controller.equals(labels.get("controller"));
            summary.put(
                    "reconciles_per_kyma_" + controller,
                    f1((opAfter.sum("controller_runtime_reconcile_total", of)
                                    - opBefore.sum("controller_runtime_reconcile_total", of))
                            / n));
        }
        summary.put("cpu_operator_s", f1(operatorCpu));
        clusterCpu.forEach((k, v) -> summary.put("cpu_" + k + "_s", f1(v)));
        // CPU per write during the load (from the first create to the last Ready), against the load's writes:
        // start-up and T(1) are the same at any N and would not be a cost per write
        summary.put("cpu_operator_load_s", f1(loadCpu.operator()));
        summary.put("cpu_ms_per_write", String.format(Locale.ROOT, "%.3f", loadCpu.operator() * 1000 / writes));
        // the same by kind of thread: system calls, the JIT compiler, the collector, the rest (the code itself)
        for (String part : List.of("kernel", "jit", "gc", "rest")) {
            summary.put(
                    "cpu_" + part + "_ms_per_write",
                    loadCpu.operatorParts()
                            .map(p -> String.format(
                                    Locale.ROOT, "%.3f", p.byName().get(part) * 1000 / writes))
                            .orElse("n/a"));
        }
        if (loadCpu.cluster().containsKey("apiserver")) {
            summary.put(
                    "apiserver_cpu_ms_per_write",
                    String.format(Locale.ROOT, "%.3f", loadCpu.cluster().get("apiserver") * 1000 / writes));
        }
        return new Result(summary, byMethod, byResource, apiByVerbCode, opByMethodCode);
    }

    /** "LIST kymas 200": which reads and writes went to which resource, for telling one client's requests apart. */
    static String verbResourceCode(Map<String, String> labels) {
        String resource = labels.getOrDefault("resource", "");
        String subresource = labels.getOrDefault("subresource", "");
        return labels.get("verb") + " " + (resource.isEmpty() ? "-" : resource)
                + (subresource.isEmpty() ? "" : "/" + subresource) + " " + labels.get("code");
    }

    String summaryLine() {
        return summary.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    String report(BenchOptions options) {
        StringBuilder out = new StringBuilder();
        out.append("# kyma-operator benchmark\n\n");
        out.append("```\n").append(summaryLine()).append("\n```\n\n");
        out.append("- N = ")
                .append(summary.get("n"))
                .append(" Kymas of the 18 modules, transition unit ")
                .append(summary.get("unit"))
                .append(", operator flags: ")
                .append(options.operatorFlags().isEmpty() ? "defaults" : String.join(" ", options.operatorFlags()))
                .append("\n");
        if (options.shards() > 1) {
            out.append("- ")
                    .append(options.shards())
                    .append(" operator replicas, each with --shards ")
                    .append(options.shards())
                    .append(" --shard-id i: memory, CPU, writes and the time series are")
                    .append(" their sums, the peak RSS is the largest replica's, replica_* give each one's share\n");
        }
        out.append("- Machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, Java ")
                .append(System.getProperty("java.version"))
                .append(", ")
                .append(System.getProperty("os.name"))
                .append(' ')
                .append(System.getProperty("os.arch"))
                .append("\n");
        out.append("- Cluster: ")
                .append(options.kubeconfig()
                        .map(k -> "from " + k)
                        .orElse("embedded kube-apiserver v1.20.2 and etcd started for this run"
                                + (options.apiserverWatchBuffer() > 0
                                        ? ", the API server built with a buffer of " + options.apiserverWatchBuffer()
                                                + " events per watcher of a custom resource instead of 10"
                                        : "")))
                .append("\n\n");
        out.append("## Verdict\n\n");
        out.append("T(N) = ")
                .append(summary.get("tn_s"))
                .append(" s; the ideal T*(N) = max(T(1), N x W / L) = max(")
                .append(summary.get("t1_s"))
                .append(", ")
                .append(summary.get("n"))
                .append(" x ")
                .append(summary.get("writes_per_kyma"))
                .append(" / ")
                .append(summary.get("ceiling_writes_per_s"))
                .append(") = ")
                .append(summary.get("ideal_s"))
                .append(" s; ratio **")
                .append(summary.get("ratio"))
                .append("**.\n\n");
        out.append("L is the lower of the API server's write ceiling and the QPS of the operator's client (")
                .append(summary.get("client_qps"))
                .append("; every write is a request, so no client sustains more).\n")
                .append("The API server's ceiling, ")
                .append(summary.get("apiserver_ceiling_writes_per_s"))
                .append(" writes/s, was measured in this run before the operator started: create plus five status\n")
                .append("writes on throwaway HelmComponents, each written as the operator writes a status (")
                .append(summary.get("ceiling_verb"))
                .append(", guarded by the resourceVersion), by a client without\n")
                .append("a QPS limiter, at concurrency 8, 32 and 64; the best was ")
                .append(summary.get("ceiling_concurrency"))
                .append(". Against that ceiling alone, T*(N) = ")
                .append(summary.get("apiserver_ideal_s"))
                .append(" s and the ratio ")
                .append(summary.get("apiserver_ratio"))
                .append(".\n");
        out.append("At that concurrency, each verb once more: server-side apply ")
                .append(summary.get("apply_writes_per_s"))
                .append(" writes/s at ")
                .append(summary.get("apply_apiserver_cpu_ms_per_write"))
                .append(" ms of API server CPU per write; JSON merge patch ")
                .append(summary.get("merge_writes_per_s"))
                .append(" writes/s at ")
                .append(summary.get("merge_apiserver_cpu_ms_per_write"))
                .append(" ms.\n\n");
        if (!"n/a".equals(summary.getOrDefault("ordered_bound_s", "n/a"))) {
            out.append("No order of admission with every transition on time finishes this load before ")
                    .append(summary.get("ordered_bound_s"))
                    .append(" s (`ordered_bound_s`, from a linear program over")
                    .append(
                            " the Kymas' timetables and the client's QPS and burst; see docs/bench/archive/history.md).\n\n");
        }
        out.append("## Time to Ready\n\n");
        out.append(
                        "From each Kyma's creation to its `Ready` condition, by its own timestamps (one-second resolution):\n")
                .append("first ")
                .append(summary.get("first_ready_s"))
                .append(" s, median ")
                .append(summary.get("p50_ready_s"))
                .append(" s, p99 ")
                .append(summary.get("p99_ready_s"))
                .append(" s, mean ")
                .append(summary.get("mean_ready_s"))
                .append(" s (")
                .append(String.format(
                        Locale.ROOT,
                        "%.2f",
                        Double.parseDouble(summary.get("mean_ready_s")) / Double.parseDouble(summary.get("tn_s"))))
                .append(" x T(N)); each Kyma in `ready-times.csv`, in the order of admission (creation time, then ")
                .append("name).\n\n");
        if (summary.containsKey("arrival_rate_per_s")) {
            out.append("Open loop: the Kymas arrived one after another at ")
                    .append(summary.get("arrival_rate_per_s"))
                    .append(" a second; the first tenth took ")
                    .append(summary.get("ready_first_tenth_s"))
                    .append(" s to Ready on average, the last tenth ")
                    .append(summary.get("ready_last_tenth_s"))
                    .append(" s: the queue ")
                    .append("yes".equals(summary.get("queue_grew")) ? "grew" : "did not grow")
                    .append(" (grew: the last tenth took more than 1.1 times as long).\n\n");
        }
        out.append(RunCharts.Chart.READY.link).append("\n\n");
        out.append("## Writes\n\n");
        out.append("- per Kyma: ").append(summary.get("writes_per_kyma")).append("\n");
        out.append("- operator writes by method: ")
                .append(Bench.table(writesByVerb))
                .append("\n");
        out.append("- API server writes by resource: ")
                .append(Bench.table(writesByResource))
                .append("\n");
        out.append("- API server requests by verb, resource and code: ")
                .append(Bench.table(apiserverByVerbAndCode))
                .append("\n");
        out.append("- operator requests by method and code (whole run): ")
                .append(Bench.table(operatorByMethodAndCode))
                .append("\n\n");
        out.append("## Queue, memory, CPU\n\n");
        out.append("- queue wait p50 in ")
                .append(summary.get("p50_queue_wait_s"))
                .append(" s, p99 in ")
                .append(summary.get("p99_queue_wait_s"))
                .append(" s (the histogram bucket each falls in); ")
                .append("transitions written after their due time, p99 in ")
                .append(summary.get("p99_lateness_s"))
                .append(" s; max depth ")
                .append(summary.get("max_queue_depth"))
                .append("\n");
        out.append("- operator RSS empty (CRDs installed, no objects) ")
                .append(summary.get("empty_rss_mb"))
                .append(" MiB once idle (")
                .append("on".equals(summary.get("heap_probes")) ? "after a full GC, " : "")
                .append("when ")
                .append(OperatorProcess.SETTLE_WINDOW)
                .append(" samples a second apart were within ")
                .append(OperatorProcess.SETTLE_SPREAD_MIB)
                .append(" MiB), ")
                .append(summary.get("ready_rss_mb"))
                .append(" MiB at readiness, ")
                .append(summary.get("idle_rss_mb"))
                .append(" MiB idle after one Kyma; peak ")
                .append(summary.get("peak_rss_mb"))
                .append(" MiB; ")
                .append(summary.get("rss_after_burst_mb"))
                .append(" MiB after ")
                .append(options.afterBurst().toSeconds())
                .append(" s idle once the burst was over; collections the bench or a tool asked for (`induced_gcs`) ")
                .append(summary.get("induced_gcs"))
                .append(", full collections the operator asked for itself to hand back the heap once its pool was quiet"
                        + " (`heap_returns`) ")
                .append(summary.get("heap_returns"))
                .append(", and to keep the old generation under its ceiling (`ceiling_gcs`) ")
                .append(summary.get("ceiling_gcs"))
                .append(
                        "on".equals(summary.get("heap_probes"))
                                ? " (`--heap-probes`: the live heap weighed before and during the load, so these RSS"
                                        + " figures are not a deployment's)"
                                : " (the live heap weighed once, after these figures)")
                .append("; heap after a full GC ")
                .append(summary.get("heap_mb"))
                .append(" MiB, per watched object ")
                .append(summary.get("heap_bytes_per_object"))
                .append(" bytes, of which the load added ")
                .append(summary.get("heap_growth_bytes_per_object"))
                .append(" bytes per object (heap after the load ")
                .append("minus heap after T(1), over the load's objects, with `--heap-probes`); live heap and RSS at")
                .append(" each tenth of the load in `heap-by-objects.csv` (with `--heap-probes`); most write answers")
                .append(" held for read after write ")
                .append(summary.get("temp_cache_max"))
                .append("\n");
        out.append("- operator JVM: ")
                .append(OperatorProcess.javaVersion(options.javaCommand()))
                .append(", flags ")
                .append(String.join(" ", options.jvmOptions()))
                .append(
                        options.operatorEnvironment().isEmpty()
                                ? ""
                                : ", environment "
                                        + options.operatorEnvironment().entrySet().stream()
                                                .map(e -> e.getKey() + "=" + e.getValue())
                                                .sorted()
                                                .collect(Collectors.joining(" ")))
                .append("\n");
        out.append("- CPU seconds: operator ")
                .append(summary.get("cpu_operator_s"))
                .append(" (")
                .append(summary.get("cpu_operator_load_s"))
                .append(" during the load, ")
                .append(summary.get("cpu_ms_per_write"))
                .append(" ms per write)");
        if (summary.containsKey("cpu_apiserver_s")) {
            out.append(", kube-apiserver ")
                    .append(summary.get("cpu_apiserver_s"))
                    .append(", etcd ")
                    .append(summary.get("cpu_etcd_s"));
        }
        out.append("\n\n")
                .append(RunCharts.Chart.PROGRESS.link)
                .append("\n\n")
                .append(RunCharts.Chart.MEMORY.link)
                .append("\n");
        return out.toString();
    }

    private static boolean isWrite(String verb) {
        return verb != null
                && (verb.equals("POST")
                        || verb.equals("PATCH")
                        || verb.equals("PUT")
                        || verb.equals("DELETE")
                        || verb.equals("CREATE")
                        || verb.equals("APPLY"));
    }

    static final String LATENESS = "kyma_operator_transition_lateness_seconds";

    private static double transitions(PromText before, PromText after) {
        return after.sum(LATENESS + "_count") - before.sum(LATENESS + "_count");
    }

    /** How late the load's transitions were written after their due time: transitions by histogram bucket. */
    static LinkedHashMap<String, Double> lateness(PromText before, PromText after) {
        return PromText.bucketCounts(before.buckets(LATENESS), after.buckets(LATENESS), transitions(before, after));
    }

    /** Bytes in KiB to one decimal, or "n/a" for nothing measured (-1). */
    private static String kib(long bytes) {
        return bytes < 0 ? "n/a" : f1(bytes / 1024.0);
    }

    private static String f1(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
