package io.kyma.operator.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.flags.CommandLine;
import io.kyma.operator.manager.KubernetesClients;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.remotejob.JobServer;

/**
 * The scale benchmark: measures the API server's write ceiling L, the time T(1) of one Kyma of the 18 modules and the
 * time T(N) of N at once, and reports T(N) / max(T(1), N x W / L), W being the writes per Kyma counted in the run.
 */
public final class Bench {
    /** The 18 modules of the original experiment (the test fixtures' list; BenchModulesTest keeps them equal). */
    static final List<String> MODULES = List.of(
            "istio",
            "cluster-essentials",
            "certificates",
            "istio-resources",
            "logging",
            "tracing",
            "kiali",
            "monitoring",
            "eventing",
            "ory",
            "api-gateway",
            "service-catalog",
            "service-catalog-addons",
            "rafter",
            "helm-broker",
            "cluster-users",
            "serverless",
            "application-connector");

    private static final String NS = "bench";
    private static final String T1_KYMA = "bench-t1";
    private static final String CEILING_NS = "bench-ceiling";
    private static final int[] CEILING_CONCURRENCY = {8, 32, 64};
    private static final int CEILING_OBJECTS = 120;

    /** Tenant B's namespace and Kyma in the noisy-neighbour scenario. */
    static final String NEIGHBOUR_NS = "bench-neighbour";
    /** Tenant A's Runs on a slow job service in that scenario, and how long the service takes to answer. */
    static final int SLOW_RUNS = 50;

    static final Duration SLOW_ANSWER = Duration.ofSeconds(5);

    private final BenchOptions options;
    private final ManagerConfig operatorConfig;
    /** The slow job service of the noisy-neighbour scenario, the operator's --remote-server-url. */
    private final Optional<JobServer> slowJobs;

    private final HttpClient http = HttpClient.newHttpClient();
    private final Progress progress = new Progress();

    Bench(BenchOptions given) {
        if (given.noisyNeighbour()) {
            JobServer slow = JobServer.start("127.0.0.1", 0);
            slow.faults().latency(SLOW_ANSWER);
            this.slowJobs = Optional.of(slow);
            // tenant B's namespace too: the operator watches every namespace (an empty --namespace after the bench's)
            this.options = given.withOperatorFlags("--namespace=", "--remote-server-url", slow.url());
        } else {
            this.slowJobs = Optional.empty();
            this.options = given;
        }
        this.operatorConfig = ManagerConfig.parse(options.operatorFlags().toArray(String[]::new), Map.of());
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Optional<BenchOptions> read = CommandLine.read("bench", BenchOptions.USAGE, () -> {
            BenchOptions given = BenchOptions.parse(args);
            // the operator's flags too, before anything starts
            ManagerConfig.parse(given.operatorFlags().toArray(String[]::new), Map.of());
            return given;
        });
        if (read.isEmpty()) {
            return;
        }
        BenchOptions options = read.get();
        Bench bench = new Bench(options);
        Result result;
        try {
            result = bench.run();
        } finally {
            bench.slowJobs.ifPresent(JobServer::close);
        }
        System.out.println(result.summaryLine());
        Files.writeString(options.out().resolve("summary.txt"), result.summaryLine() + "\n");
    }

    Result run() throws Exception {
        Files.createDirectories(options.out());
        try (ClusterUnderTest cluster = ClusterUnderTest.start(options)) {
            Config config = cluster.clientConfig();
            OperatorMetrics clientMetrics = new OperatorMetrics();
            try (KubernetesClient client =
                    KubernetesClients.create(config, operatorConfig.client(), clientMetrics, List.of())) {
                installCrds(client);
                namespace(client, NS);
                namespace(client, CEILING_NS);
                if (options.noisyNeighbour()) {
                    namespace(client, NEIGHBOUR_NS);
                }
                if (options.kubeconfig().isPresent()) {
                    removeLeftovers(client, "of an earlier run");
                }
                progress.say("measuring the API server's write ceiling");
                Ceiling ceiling;
                // The API server's own ceiling, by a client without the QPS limiter: a short probe by a limited
                // client would be lifted above its QPS by its burst and measure neither the server nor the client.
                try (KubernetesClient unlimited =
                        KubernetesClients.create(config, withoutClientLimiter().client(), clientMetrics, List.of())) {
                    ceiling = measureCeiling(unlimited, cluster, clientQps());
                }
                progress.say(String.format(
                        Locale.ROOT,
                        "ceiling: API server %.0f writes/s at concurrency %d, the operator's client %s; requests: %s",
                        ceiling.apiserverWritesPerSecond(),
                        ceiling.concurrency(),
                        ceiling.clientQps() > 0
                                ? String.format(Locale.ROOT, "%.0f/s", ceiling.clientQps())
                                : "unlimited",
                        Bench.table(Bench.byLabel(
                                PromText.parse(""),
                                PromText.parse(clientMetrics.scrape()),
                                "rest_client_requests_total",
                                "method",
                                l -> true))));
                Result result;
                try (OperatorUnderTest operator = options.shards() > 1
                        ? Replicas.start(options, cluster)
                        : OperatorProcess.start(options, cluster, operatorConfig)) {
                    result = measure(client, cluster, operator, ceiling);
                }
                if (options.kubeconfig().isPresent()) {
                    removeLeftovers(client, "of this run");
                }
                return result;
            }
        }
    }

    /** CPU seconds used during the load: the operator's, and the embedded API server's and etcd's. */
    /** @param operatorParts where the operator's CPU went, by kind of thread; empty for several replicas */
    record LoadCpu(double operator, Map<String, Double> cluster, Optional<ThreadCpu.Parts> operatorParts) {}

    /** The operator's RSS before any object: at readiness, and idle once it settled. */
    record EmptyOperator(double readyRssMiB, double settledRssMiB) {}

    private Result measure(
            KubernetesClient client, ClusterUnderTest cluster, OperatorUnderTest operator, Ceiling ceiling)
            throws Exception {
        // The empty operator: started, its informers synced, nothing to watch but the CRDs; its RSS at readiness
        // and once it has settled (after a full collection with --heap-probes, which weighs its live heap).
        boolean probes = options.heapProbes();
        double readyRss = operator.rssMiB();
        double emptyHeap = probes ? operator.heapAfterFullGc() : Double.NaN;
        EmptyOperator empty = new EmptyOperator(readyRss, operator.settledRssMiB());
        double emptyRss = empty.settledRssMiB();
        progress.say("T(1): one Kyma of the 18 modules");
        long t1Start = System.nanoTime();
        client.resource(kyma(T1_KYMA)).create();
        while (operator.scrape().sum("kyma_operator_kymas", l -> "Ready".equals(l.get("phase"))) < 1) {
            Thread.sleep(200);
        }
        double t1 = (System.nanoTime() - t1Start) / 1e9;
        progress.say(String.format(Locale.ROOT, "T(1) = %.1f s", t1));
        double t1Writes = operator.scrape()
                .sum(
                        "rest_client_requests_total",
                        l -> !"GET".equals(l.get("method"))
                                && l.getOrDefault("code", "").startsWith("2"));
        double arrivalRate = options.arrivalRate()
                .map(r -> r.perSecond(ceiling.writesPerSecond(), t1Writes))
                .orElse(0.0);

        double heapBefore = probes ? operator.heapAfterFullGc() : Double.NaN;
        // idle after one Kyma, as a deployment is between bursts
        double idleRss = operator.rssMiB();
        PromText operatorBefore = operator.scrape();
        PromText apiBefore = cluster.apiserverMetrics(client);
        Sampler sampler = new Sampler(operator, options.n() + 1);
        HeapCurve heapCurve = new HeapCurve(operator, (options.n() + 1) * 19.0, probes);
        if (probes) {
            heapCurve.sample(0, emptyRss, emptyHeap);
            heapCurve.sample(19, idleRss, heapBefore);
        }
        if (options.profile()) {
            operator.startRecording();
        }
        boolean nativeMemory = options.jvmOptions().stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking"));
        NativeMemoryTimeline nativeTimeline = new NativeMemoryTimeline(operator);
        if (nativeMemory) {
            nativeTimeline.start(5);
        }
        double operatorCpuBefore = operator.cpuSeconds();
        ThreadCpu threadCpu = options.shards() > 1 ? null : new ThreadCpu(operator.pid());
        if (threadCpu != null) {
            threadCpu.start();
        }
        Map<String, Double> clusterCpuBefore = cluster.cpuSeconds();
        sampler.start();
        SocketBacklog backlog = new SocketBacklog(
                operator.pid(),
                SocketBacklog.port(URI.create(client.getConfiguration().getMasterUrl())));
        backlog.start();
        if (options.noisyNeighbour()) {
            createSlowRuns(client);
        }
        long loadStart = System.nanoTime();
        Instant loadStartedAt = Instant.now();
        createLoad(client, heapCurve, sampler, arrivalRate);
        CompletableFuture<Double> neighbour =
                options.noisyNeighbour() ? neighbour(client) : CompletableFuture.completedFuture(Double.NaN);
        int kymas = options.n() + 1 + (options.noisyNeighbour() ? 1 : 0);
        progress.say("waiting for all " + options.n() + " Kymas to be Ready");
        while (sampler.lastReady() < kymas) {
            Thread.sleep(250);
            heapCurve.maybeSample(sampler.lastWatched());
            progress.bar("ready", (int) sampler.lastReady() - 1, options.n(), loadStart);
        }
        double tn = (System.nanoTime() - loadStart) / 1e9;
        progress.done();
        sampler.stop();
        backlog.stop();
        Map<String, Double> clusterCpuLoad = new TreeMap<>();
        cluster.cpuSeconds().forEach((k, v) -> clusterCpuLoad.put(k, v - clusterCpuBefore.getOrDefault(k, 0.0)));
        LoadCpu loadCpu = new LoadCpu(
                operator.cpuSeconds() - operatorCpuBefore,
                clusterCpuLoad,
                threadCpu == null ? Optional.empty() : Optional.of(threadCpu.stop()));
        if (nativeMemory) {
            Files.writeString(options.out().resolve("native-memory-timeline.csv"), nativeTimeline.stop());
        }
        PromText operatorAfter = operator.scrape();
        PromText apiAfter = cluster.apiserverMetrics(client);
        Instant loadEndedAt = Instant.now();
        Optional<WatchCloses> closes = cluster.forcedWatchCloses();
        Optional<WatchCloses.Count> watchCloses =
                closes.map(c -> c.count(loadStartedAt, loadEndedAt, operator.pauses(), backlog.samples()));
        if (closes.isPresent()) {
            Files.writeString(
                    options.out().resolve("watch-closes.csv"), closes.get().csv(loadStartedAt, loadEndedAt));
        }
        Files.writeString(
                options.out().resolve("socket-backlog.csv"), SocketBacklog.csv(backlog.samples(), loadStartedAt));
        if (options.profile()) {
            progress.say("writing the profile of the load");
            JfrProfile profile = operator.stopRecording(options.out().resolve("operator.jfr"));
            Files.writeString(
                    options.out().resolve("profile.txt"),
                    "Execution samples of the operator during the load ("
                            + OperatorProcess.javaVersion(options.javaCommand()) + ", JFR settings 'profile', flags "
                            + String.join(" ", options.jvmOptions()) + ")\n\n" + profile.render(60));
            Files.writeString(options.out().resolve("profile.folded"), profile.folded(10));
        }
        // What a deployment's RSS does once the burst is over: nothing happens for two minutes. Then the collections
        // that a probe or a tool asked for, from the operator's start until now (none unless --heap-probes), and the
        // ones the operator asked for itself to hand back the heap once its pool was quiet.
        progress.say("idle for " + options.afterBurst().toSeconds() + " s after the burst");
        Thread.sleep(options.afterBurst().toMillis());
        double rssAfterBurst = operator.rssMiB();
        double peakRss = operator.peakRssMiB();
        // the GC logs read once, now: the load's collections by their time, the asked-for ones until now
        List<String> gcLines = new ArrayList<>();
        for (Path file : operator.gcLogs()) {
            gcLines.addAll(Files.readAllLines(file));
        }
        GcLog gcLog = GcLog.parse(gcLines.stream());
        GcLog.Summary gc = gcLog.summary(loadStartedAt, loadEndedAt);
        long inducedGcs = gcLog.induced(Instant.EPOCH, Instant.now());
        // the operator's own collections, by why it asked: at its heap ceiling or to hand the heap back after the
        // burst, from one scrape of its metric; an operator without it asked only for the return (System.gc() in
        // its GC log)
        PromText own = operator.scrape();
        String asked = "kyma_operator_heap_collections_total";
        long ceilingGcs = Math.round(own.sum(asked, l -> "ceiling".equals(l.get("reason"))));
        long heapReturns = own.has(asked)
                ? Math.round(own.sum(asked, l -> "return".equals(l.get("reason"))))
                : gcLog.own(Instant.EPOCH, Instant.now());
        // the one probe of a run without --heap-probes, after every figure it would distort
        OperatorProcess.LiveHeap live = operator.liveHeap(40);
        double heap = live.bytes();
        heapCurve.sample(sampler.lastWatched(), operator.rssMiB(), heap);
        Files.writeString(options.out().resolve("heap-histogram.txt"), live.histogram());
        if (options.jvmOptions().stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking"))) {
            Files.writeString(options.out().resolve("native-memory.txt"), operator.nativeMemory());
        }
        if (options.heapDump()) {
            operator.heapDump(options.out().resolve("heap.hprof"));
        }

        ReadyTimes ready = ReadyTimes.of(
                client.resources(Kyma.class).inNamespace(NS).list().getItems(), T1_KYMA);
        Files.writeString(options.out().resolve("ready-times.csv"), ready.csv());
        Charts.readyTimes(ready, options.out().resolve("ready.png"));
        LinkedHashMap<String, Double> lateness = Result.lateness(operatorBefore, operatorAfter);
        Files.writeString(options.out().resolve("lateness.csv"), Charts.bucketsCsv(lateness, "transitions"));
        Charts.lateness(lateness, options.out().resolve("lateness.png"));
        Result result = Result.compute(
                options,
                ceiling,
                t1,
                tn,
                sampler,
                operatorBefore,
                operatorAfter,
                apiBefore,
                apiAfter,
                heapBefore,
                heap,
                peakRss,
                operator.cpuSeconds(),
                cluster.cpuSeconds(),
                loadCpu,
                watchCloses,
                gc,
                empty,
                ready,
                arrivalRate);
        result.summary().put("heap_probes", probes ? "on" : "off");
        result.summary().put("induced_gcs", Long.toString(inducedGcs));
        result.summary().put("heap_returns", Long.toString(heapReturns));
        result.summary().put("ceiling_gcs", Long.toString(ceilingGcs));
        result.summary().put("idle_rss_mb", String.format(Locale.ROOT, "%.1f", idleRss));
        result.summary().put("rss_after_burst_mb", String.format(Locale.ROOT, "%.1f", rssAfterBurst));
        if (operator instanceof Replicas replicas) {
            replicas.describe(result.summary());
        }
        if (options.noisyNeighbour()) {
            double neighbourReady = neighbour.get();
            result.summary().put("neighbour_ready_s", String.format(Locale.ROOT, "%.1f", neighbourReady));
            result.summary().put("neighbour_ready_ratio", String.format(Locale.ROOT, "%.3f", neighbourReady / t1));
            result.summary().put("slow_runs", Integer.toString(SLOW_RUNS));
            result.summary().put("slow_answer_s", Long.toString(SLOW_ANSWER.toSeconds()));
            result.summary()
                    .put(
                            "job_calls_failed",
                            String.format(
                                    Locale.ROOT,
                                    "%.0f",
                                    operatorAfter.sum(
                                            "kyma_operator_job_calls_finished_total",
                                            l -> "failed".equals(l.get("outcome")))));
        }
        // How close the run came to the best order of admission with its transitions on time
        // (docs/bench/archive/history.md,
        // "The least T(N) with ordered progress"); the client's burst counts when its QPS is the rate.
        boolean clientBound = ceiling.clientQps() > 0 && ceiling.writesPerSecond() >= ceiling.clientQps();
        result.summary()
                .put(
                        "ordered_bound_s",
                        OrderedProgressBound.onTime(
                                        MODULES,
                                        options.unit(),
                                        arrivalRate > 0,
                                        options.n(),
                                        Double.parseDouble(result.summary().get("writes_per_kyma")),
                                        ceiling.writesPerSecond(),
                                        clientBound ? operatorConfig.client().burst() * options.shards() : 0,
                                        tn)
                                .map(b -> Integer.toString(b.tnSeconds()))
                                .orElse("n/a"));
        Files.writeString(options.out().resolve("timeseries.csv"), sampler.csv());
        Files.writeString(options.out().resolve("heap-by-objects.csv"), heapCurve.csv());
        if (!heapCurve.largestHistogram().isEmpty()) {
            Files.writeString(options.out().resolve("heap-histogram-peak.txt"), heapCurve.largestHistogram());
        }
        Charts.progress(sampler.rows(), options.out().resolve("progress.png"));
        Charts.memory(sampler.rows(), heapCurve.points(), options.out().resolve("memory.png"));
        Files.writeString(options.out().resolve("report.md"), result.report(options));
        progress.say("report: " + options.out().resolve("report.md"));
        return result;
    }

    /** Tenant A's Runs, polled on the slow job service for the whole load. */
    private void createSlowRuns(KubernetesClient client) {
        progress.say(SLOW_RUNS + " Runs on a job service that answers in " + SLOW_ANSWER.toSeconds() + " s");
        for (int i = 0; i < SLOW_RUNS; i++) {
            Run run = new Run();
            run.setMetadata(new ObjectMetaBuilder()
                    .withName(String.format("slow-%02d", i))
                    .withNamespace(NS)
                    .build());
            run.setSpec(new RunSpec());
            run.getSpec().setJob(new JobSpec());
            run.getSpec().getJob().setName("batch");
            run.getSpec()
                    .getJob()
                    .setParams(new LinkedHashMap<>(Map.of("durationSeconds", "86400", "linesPerSecond", "1")));
            run.getSpec().setPollInterval("1s");
            client.resource(run).create();
        }
    }

    /**
     * Tenant B's Kyma, created once A's are: completes with the seconds from its create until the bench sees it
     * Ready, looked at every 200 ms as T(1) is.
     */
    private CompletableFuture<Double> neighbour(KubernetesClient client) {
        progress.say("tenant B: one Kyma in " + NEIGHBOUR_NS);
        Kyma kyma = kyma("neighbour");
        kyma.getMetadata().setNamespace(NEIGHBOUR_NS);
        long start = System.nanoTime();
        client.resource(kyma).create();
        return CompletableFuture.supplyAsync(() -> {
            while (true) {
                Kyma seen = client.resources(Kyma.class)
                        .inNamespace(NEIGHBOUR_NS)
                        .withName("neighbour")
                        .get();
                if (seen != null && seen.getStatus() != null && seen.getStatus().getPhase() == KymaPhase.READY) {
                    return (System.nanoTime() - start) / 1e9;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Double.NaN;
                }
            }
        });
    }

    /** All N at once, or one after another at {@code perSecond} (open loop). */
    private void createLoad(KubernetesClient client, HeapCurve heapCurve, Sampler sampler, double perSecond)
            throws Exception {
        ScheduledExecutorService creators = Executors.newScheduledThreadPool(16);
        AtomicInteger created = new AtomicInteger();
        long start = System.nanoTime();
        if (perSecond > 0) {
            progress.say(String.format(Locale.ROOT, "open loop: %.2f Kymas a second", perSecond));
        }
        for (int i = 0; i < options.n(); i++) {
            String name = String.format("kyma-%05d", i); // creation order is name order within a second
            long at = perSecond > 0 ? (long) (i * 1e9 / perSecond) : 0;
            creators.schedule(
                    () -> {
                        client.resource(kyma(name)).create();
                        progress.bar("created", created.incrementAndGet(), options.n(), start);
                    },
                    at,
                    TimeUnit.NANOSECONDS);
        }
        creators.shutdown();
        while (!creators.awaitTermination(250, TimeUnit.MILLISECONDS)) {
            heapCurve.maybeSample(sampler.lastWatched());
        }
        progress.done();
    }

    /**
     * Create plus five status writes per throwaway object with the operator's own verb, at several concurrencies;
     * the best one counts. Then both verbs once more at that concurrency, for what each costs the API server.
     */
    /** The operator's flags with its client limiter off. */
    private ManagerConfig withoutClientLimiter() {
        List<String> flags = new ArrayList<>(options.operatorFlags());
        flags.add("--k8s-client-qps=0");
        return ManagerConfig.parse(flags.toArray(String[]::new), Map.of());
    }

    /** Requests per second the operator's clients may make together (0: no limit): each replica has its own. */
    private double clientQps() {
        return operatorConfig.client().qps() > 0 ? operatorConfig.client().qps() * options.shards() : 0;
    }

    private Ceiling measureCeiling(KubernetesClient client, ClusterUnderTest cluster, double clientQps)
            throws InterruptedException {
        StatusVerb verb = StatusVerb.APPLY; // the operator's
        writeThrowaways(client, 16, "warmup", verb); // a cold client and API server would understate the ceiling
        double bestRate = 0;
        int bestConcurrency = 0;
        for (int concurrency : CEILING_CONCURRENCY) {
            double rate = writeThrowaways(client, concurrency, "c" + concurrency, verb);
            if (rate > bestRate) {
                bestRate = rate;
                bestConcurrency = concurrency;
            }
        }
        // What each verb costs the API server, at the best concurrency, one after the other.
        Map<StatusVerb, VerbCost> verbs = new EnumMap<>(StatusVerb.class);
        for (StatusVerb each : StatusVerb.values()) {
            Double cpuBefore = cluster.cpuSeconds().get("apiserver");
            double rate =
                    writeThrowaways(client, bestConcurrency, "v-" + each.name().toLowerCase(Locale.ROOT), each);
            Double cpuAfter = cluster.cpuSeconds().get("apiserver");
            double cpuMs = cpuBefore == null || cpuAfter == null
                    ? Double.NaN
                    : (cpuAfter - cpuBefore) * 1000 / (CEILING_OBJECTS * WRITES_PER_THROWAWAY);
            verbs.put(each, new VerbCost(rate, cpuMs));
        }
        client.resources(HelmComponent.class)
                .inNamespace(CEILING_NS)
                .withLabel("bench", "ceiling")
                .delete();
        return new Ceiling(bestRate, bestConcurrency, clientQps, verbs);
    }

    /** A create and one status write per component state. */
    private static final int WRITES_PER_THROWAWAY = 1 + ComponentState.values().length;

    /**
     * Writes CEILING_OBJECTS throwaway objects: a create, then each state written as the operator writes a status
     * ({@link StatusVerb#write}, guarded by the resourceVersion of the previous answer). Returns writes per second.
     */
    private static double writeThrowaways(KubernetesClient client, int concurrency, String prefix, StatusVerb verb)
            throws InterruptedException {
        ExecutorService workers = Executors.newFixedThreadPool(concurrency);
        long start = System.nanoTime();
        for (int i = 0; i < CEILING_OBJECTS; i++) {
            String name = prefix + "-" + i;
            workers.submit(() -> {
                HelmComponent component = new HelmComponent();
                component.setMetadata(new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(CEILING_NS)
                        .addToLabels("bench", "ceiling")
                        .build());
                component.setSpec(new HelmComponentSpec());
                component.getSpec().setModule("ceiling");
                HelmComponent current = client.resource(component).create();
                for (ComponentState state : ComponentState.values()) {
                    HelmComponent statusOnly = new HelmComponent();
                    statusOnly.setMetadata(new ObjectMetaBuilder()
                            .withName(name)
                            .withNamespace(CEILING_NS)
                            .build());
                    statusOnly.setStatus(new HelmComponentStatus());
                    statusOnly.getStatus().setState(state);
                    current = verb.write(client, current, statusOnly, "kyma-bench");
                }
            });
        }
        workers.shutdown();
        workers.awaitTermination(1, TimeUnit.HOURS);
        return CEILING_OBJECTS * WRITES_PER_THROWAWAY / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * @param apiserverWritesPerSecond the API server's ceiling: the best write rate of a client without a limiter
     * @param concurrency the concurrency it was reached at
     * @param clientQps requests per second the operator's clients may make together; 0 for no limit
     * @param verbs for each way of writing a status, the write rate and the API server's CPU per write at the
     *        best concurrency
     */
    record Ceiling(
            double apiserverWritesPerSecond, int concurrency, double clientQps, Map<StatusVerb, VerbCost> verbs) {
        /**
         * The ceiling L of the operator's writes: the API server's, or the client's QPS where that is lower (every
         * write is a request, so no client sustains more writes than its QPS).
         */
        double writesPerSecond() {
            return clientQps > 0 ? Math.min(apiserverWritesPerSecond, clientQps) : apiserverWritesPerSecond;
        }
    }

    record VerbCost(double writesPerSecond, double apiserverCpuMsPerWrite) {}

    private static Kyma kyma(String name) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(MODULES.stream().map(m -> new Module(m, null)).toList());
        return kyma;
    }

    private void installCrds(KubernetesClient client) throws IOException {
        try (var files = Files.list(options.repository().resolve("config/crd/bases"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    CustomResourceDefinition crd = client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .load(in)
                            .item();
                    client.resource(crd).forceConflicts().serverSideApply();
                    client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd.getMetadata().getName())
                            .waitUntilCondition(
                                    c -> c.getStatus() != null
                                            && c.getStatus().getConditions() != null
                                            && c.getStatus().getConditions().stream()
                                                    .anyMatch(x -> "Established".equals(x.getType())
                                                            && "True".equals(x.getStatus())),
                                    60,
                                    TimeUnit.SECONDS);
                }
            }
        }
    }

    /** A cluster of --kubeconfig outlives the run: the next run must start with an empty namespace. */
    private void removeLeftovers(KubernetesClient client, String whose) throws InterruptedException {
        long removed = Leftovers.sweep(client, NS);
        if (removed > 0) {
            progress.say("deleted the " + removed + " Kymas and HelmComponents " + whose + " in namespace " + NS);
        }
    }

    private static void namespace(KubernetesClient client, String name) {
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .serverSideApply();
    }

    /** Drops a hook that a normal close made unnecessary; during shutdown the hook runs anyway. */
    static void forgetShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static String get(HttpClient http, URI uri) throws IOException, InterruptedException {
        return http.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** A progress bar with an ETA on a terminal, a line per tenth in a log. */
    static final class Progress {
        private final boolean terminal = System.console() != null;
        private int lastTenth = -1;
        private int lastDone = -1;

        synchronized void say(String line) {
            System.err.println("[bench] " + line);
        }

        synchronized void bar(String what, int done, int total, long startNanos) {
            if (done <= lastDone) {
                return; // callers on several threads may report out of order
            }
            lastDone = done;
            double fraction = total == 0 ? 1 : (double) done / total;
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            String eta = done == 0 ? "?" : String.format(Locale.ROOT, "%.0fs", elapsed / done * (total - done));
            int width = 30;
            int filled = (int) Math.round(fraction * width);
            String line = String.format(
                    Locale.ROOT,
                    "[%s%s] %3.0f%% %s %d/%d, ETA %s",
                    "#".repeat(filled),
                    " ".repeat(width - filled),
                    fraction * 100,
                    what,
                    done,
                    total,
                    eta);
            if (terminal) {
                System.err.print("\r" + line);
            } else if ((int) (fraction * 10) != lastTenth) {
                lastTenth = (int) (fraction * 10);
                System.err.println(line);
            }
        }

        synchronized void done() {
            if (terminal) {
                System.err.println();
            }
            lastTenth = -1;
            lastDone = -1;
        }
    }

    static Map<String, Double> byLabel(
            PromText before, PromText after, String metric, String label, Predicate<Map<String, String>> filter) {
        Map<String, Double> result = new TreeMap<>();
        for (PromText.Sample s : after.samples()) {
            if (s.name().equals(metric) && filter.test(s.labels())) {
                result.merge(s.labels().getOrDefault(label, ""), s.value(), Double::sum);
            }
        }
        for (PromText.Sample s : before.samples()) {
            if (s.name().equals(metric) && filter.test(s.labels())) {
                result.merge(s.labels().getOrDefault(label, ""), -s.value(), Double::sum);
            }
        }
        result.values().removeIf(v -> v == 0);
        return result;
    }

    static String table(Map<String, Double> values) {
        return values.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s=%.0f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }
}
