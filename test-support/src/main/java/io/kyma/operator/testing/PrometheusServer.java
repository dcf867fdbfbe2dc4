package io.kyma.operator.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Debian's Prometheus, started on loopback with the repository's scrape configuration (the ServiceMonitor's
 * equivalent, config/prometheus/scrape-config.yaml) and alert rules, scraping one operator on this machine.
 */
public final class PrometheusServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One series of a query's answer: its labels and its samples (seconds since the epoch, value). */
    public record Series(Map<String, String> labels, List<double[]> samples) {
        /** Whether any sample is a number (histogram_quantile gives NaN where nothing was observed). */
        public boolean hasNumber() {
            return samples.stream().anyMatch(s -> !Double.isNaN(s[1]) && !Double.isInfinite(s[1]));
        }
    }

    private final Process process;
    private final Path dir;
    private final URI url;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, Path dir, URI url) {
        this.process = process;
        this.dir = dir;
        this.url = url;
    }

    /** The prometheus binary on the PATH, installed from Debian's package first if it is missing. */
    public static synchronized Path binary() throws IOException, InterruptedException {
        Optional<Path> found = onPath();
        if (found.isEmpty()) {
            Process install = new ProcessBuilder(
                            Crds.repositoryRoot().resolve("hack/prometheus.sh").toString(), "install")
                    .inheritIO()
                    .start();
            if (install.waitFor() != 0) {
                throw new IllegalStateException("hack/prometheus.sh install failed (exit " + install.exitValue()
                        + "); install Debian's prometheus package");
            }
            found = onPath();
        }
        return found.orElseThrow(() -> new IllegalStateException("prometheus is not on the PATH after installing it"));
    }

    private static Optional<Path> onPath() {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator))
                .map(p -> Path.of(p, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Starts Prometheus on 127.0.0.1:{@code port} (0 picks a free one), scraping {@code target} (host:port of the
     * operator's /metrics, served with {@code --metrics-secure}) as if it were the pod {@code pod} behind the metrics
     * Service, with {@code token} as its bearer token.
     */
    public static PrometheusServer start(String target, String pod, int port, String token)
            throws IOException, InterruptedException {
        Path config = Crds.repositoryRoot().resolve("config/prometheus");
        Path dir = Files.createTempDirectory("prometheus-");
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, token);
        Files.writeString(
                dir.resolve("prometheus.yaml"),
                Files.readString(config.resolve("scrape-config.yaml"))
                        .replace("\"TARGET\"", "\"" + target + "\"")
                        .replace("POD", pod)
                        .replace("TOKEN_FILE", tokenFile.toString()));
        Files.copy(config.resolve("alerts.yaml"), dir.resolve("alerts.yaml"));
        int listen = port == 0 ? freePort() : port;
        Process process = new ProcessBuilder(
                        binary().toString(),
                        "--config.file=" + dir.resolve("prometheus.yaml"),
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + listen,
                        "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        PrometheusServer server = new PrometheusServer(process, dir, URI.create("http://127.0.0.1:" + listen));
        server.awaitReady();
        return server;
    }

    public URI url() {
        return url;
    }

    /** Prometheus's version, as its build information gives it. */
    public String version() throws IOException, InterruptedException {
        return get("/api/v1/status/buildinfo").path("data").path("version").asText();
    }

    /** What Prometheus logged so far, for a failure message. */
    public String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The value of an instant query now. */
    public List<Series> query(String expr) throws IOException, InterruptedException {
        return series(get("/api/v1/query?query=" + encode(expr)).path("data"));
    }

    /** A range query over [{@code start}, {@code end}] at {@code step}. */
    public List<Series> queryRange(String expr, Instant start, Instant end, Duration step)
            throws IOException, InterruptedException {
        return series(get("/api/v1/query_range?query=" + encode(expr) + "&start=" + start.getEpochSecond() + "&end="
                        + end.getEpochSecond() + "&step=" + step.toSeconds())
                .path("data"));
    }

    /** The loaded alerting rules by name, each with its health ("ok" once evaluated without error) and state. */
    public Map<String, JsonNode> alertRules() throws IOException, InterruptedException {
        Map<String, JsonNode> rules = new LinkedHashMap<>();
        for (JsonNode group : get("/api/v1/rules?type=alert").path("data").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                rules.put(rule.path("name").asText(), rule);
            }
        }
        return rules;
    }

    /** The scrape targets Prometheus knows, active ones, each with its labels and health. */
    public List<JsonNode> targets() throws IOException, InterruptedException {
        List<JsonNode> targets = new ArrayList<>();
        get("/api/v1/targets?state=active").path("data").path("activeTargets").forEach(targets::add);
        return targets;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(url.resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200
                || !"success".equals(body.path("status").asText())) {
            throw new IOException(
                    "Prometheus answered " + response.statusCode() + " to " + path + ": " + response.body());
        }
        return body;
    }

    private static List<Series> series(JsonNode data) {
        List<Series> result = new ArrayList<>();
        for (JsonNode s : data.path("result")) {
            Map<String, String> labels = new LinkedHashMap<>();
            s.path("metric")
                    .fields()
                    .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            List<double[]> samples = new ArrayList<>();
            if (s.has("value")) {
                samples.add(sample(s.path("value")));
            }
            s.path("values").forEach(v -> samples.add(sample(v)));
            result.add(new Series(labels, samples));
        }
        return result;
    }

    private static double[] sample(JsonNode pair) {
        return new double[] {
            pair.get(0).asDouble(), Double.parseDouble(pair.get(1).asText())
        };
    }

    private void awaitReady() throws InterruptedException, IOException {
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("prometheus exited with " + process.exitValue() + ": " + log());
            }
            try {
                HttpResponse<String> ready = http.send(
                        HttpRequest.newBuilder(url.resolve("/-/ready"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        close();
        throw new IOException("prometheus was not ready within 60 s: " + log());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
