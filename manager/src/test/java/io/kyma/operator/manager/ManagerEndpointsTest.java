package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.config.EndpointSettings;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.manager.secure.MetricsAccess;
import io.kyma.operator.manager.secure.SecureMetrics;
import io.kyma.operator.manager.secure.ServingCertificate;
import io.kyma.operator.testing.HangCatcher;

/** /metrics over HTTPS behind the access check, through a real TLS client; plain HTTP as the local default. */
class ManagerEndpointsTest {

    private static final MetricsAccess.User SCRAPER =
            new MetricsAccess.User("system:serviceaccount:monitoring:prometheus", "1", List.of(), Map.of());
    private static final MetricsAccess.User OTHER =
            new MetricsAccess.User("system:serviceaccount:team-a:app", "2", List.of(), Map.of());

    private final MetricsAccess.Reviews reviews = new MetricsAccess.Reviews() {
        @Override
        public Optional<MetricsAccess.User> authenticate(String token) {
            return switch (token) {
                case "scraper" -> Optional.of(SCRAPER);
                case "other" -> Optional.of(OTHER);
                default -> Optional.empty();
            };
        }

        @Override
        public boolean allowed(MetricsAccess.User user, String verb, String path) {
            return user.equals(SCRAPER);
        }
    };

    @Test
    void secureMetricsAnswerOnlyAnAuthorizedTokenOverTls() throws Exception {
        ServingCertificate certificate =
                ServingCertificate.selfSigned(List.of("localhost", "127.0.0.1"), Clock.systemUTC());
        SecureMetrics secure = new SecureMetrics(certificate, new MetricsAccess(reviews, Clock.systemUTC()));
        try (ManagerEndpoints endpoints = new ManagerEndpoints(
                settings("--metrics-secure"), () -> "kyma_operator_up 1\n", () -> true, Optional.of(secure))) {
            int port = endpoints.metricsAddress().orElseThrow().getPort();
            HttpClient tls = HttpClient.newBuilder()
                    .sslContext(trusting(certificate))
                    .connectTimeout(HangCatcher.STEP)
                    .build();
            URI metrics = URI.create("https://localhost:" + port + "/metrics");

            HttpResponse<String> anonymous = send(tls, HttpRequest.newBuilder(metrics));
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer");
            HttpResponse<String> madeUp =
                    send(tls, HttpRequest.newBuilder(metrics).header("Authorization", "Bearer made-up"));
            assertThat(madeUp.statusCode()).isEqualTo(401);
            assertThat(madeUp.headers().firstValue("WWW-Authenticate")).contains("Bearer error=\"invalid_token\"");
            assertThat(send(tls, HttpRequest.newBuilder(metrics).header("Authorization", "Bearer other"))
                            .statusCode())
                    .isEqualTo(403);
            HttpResponse<String> scrape =
                    send(tls, HttpRequest.newBuilder(metrics).header("Authorization", "Bearer scraper"));
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).isEqualTo("kyma_operator_up 1\n");
            assertThat(send(
                                    tls,
                                    HttpRequest.newBuilder(metrics)
                                            .header("Authorization", "Bearer scraper")
                                            .POST(HttpRequest.BodyPublishers.noBody()))
                            .statusCode())
                    .isEqualTo(405);
            HttpResponse<String> head = send(
                    tls,
                    HttpRequest.newBuilder(metrics)
                            .header("Authorization", "Bearer scraper")
                            .method("HEAD", HttpRequest.BodyPublishers.noBody()));
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
            assertThat(send(
                                    tls,
                                    HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/metrics/x"))
                                            .header("Authorization", "Bearer scraper"))
                            .statusCode())
                    .isEqualTo(404);
            // no plain HTTP on the secure port
            HttpClient plain =
                    HttpClient.newBuilder().connectTimeout(HangCatcher.STEP).build();
            assertThatThrownBy(() -> send(
                            plain,
                            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                                    .header("Authorization", "Bearer scraper")))
                    .isInstanceOf(IOException.class)
                    .isNotInstanceOf(HttpTimeoutException.class);
        }
    }

    @Test
    void clientsThatConnectAndStallDoNotStopAScrape() throws Exception {
        ServingCertificate certificate = ServingCertificate.selfSigned(List.of("localhost"), Clock.systemUTC());
        SecureMetrics secure = new SecureMetrics(certificate, new MetricsAccess(reviews, Clock.systemUTC()));
        try (ManagerEndpoints endpoints = new ManagerEndpoints(
                        settings("--metrics-secure"), () -> "kyma_operator_up 1\n", () -> true, Optional.of(secure));
                Socket first = stall(endpoints);
                Socket second = stall(endpoints);
                Socket third = stall(endpoints)) {
            HttpClient tls =
                    HttpClient.newBuilder().sslContext(trusting(certificate)).build();
            HttpResponse<String> scrape = send(
                    tls,
                    HttpRequest.newBuilder(URI.create("https://localhost:"
                                    + endpoints.metricsAddress().orElseThrow().getPort() + "/metrics"))
                            .header("Authorization", "Bearer scraper"));
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(ManagerEndpoints.THREADS).isGreaterThan(3);
        }
    }

    /** A connection that sends the first byte of a TLS handshake and nothing more, which takes a server thread. */
    private static Socket stall(ManagerEndpoints endpoints) throws IOException {
        Socket socket =
                new Socket("127.0.0.1", endpoints.metricsAddress().orElseThrow().getPort());
        socket.getOutputStream().write(0x16);
        socket.getOutputStream().flush();
        return socket;
    }

    @Test
    void anRsaCertificateFromADirectoryHandshakesOverTls12And13() throws Exception {
        Path dir = Files.createTempDirectory("metrics-certs");
        for (String[] file : new String[][] {{"rsa-pkcs1.crt", "tls.crt"}, {"rsa-pkcs1.key", "tls.key"}}) {
            try (InputStream in = ManagerEndpointsTest.class.getResourceAsStream("/secure/" + file[0])) {
                Files.write(dir.resolve(file[1]), in.readAllBytes());
            }
        }
        ServingCertificate certificate = ServingCertificate.fromDirectory(dir, Clock.systemUTC());
        SecureMetrics secure = new SecureMetrics(certificate, new MetricsAccess(reviews, Clock.systemUTC()));
        try (ManagerEndpoints endpoints =
                new ManagerEndpoints(settings("--metrics-secure"), () -> "", () -> true, Optional.of(secure))) {
            for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
                try (SSLSocket socket = (SSLSocket) trusting(certificate)
                        .getSocketFactory()
                        .createSocket(
                                "127.0.0.1",
                                endpoints.metricsAddress().orElseThrow().getPort())) {
                    socket.setEnabledProtocols(new String[] {protocol});
                    socket.startHandshake();
                    assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
                    assertThat(((X509Certificate) socket.getSession().getPeerCertificates()[0])
                                    .getSubjectX500Principal()
                                    .getName())
                            .isEqualTo("CN=pkcs1-test");
                }
            }
        }
    }

    @Test
    void theJdkServerIsLimitedUnlessTheCommandLineSetALimit() {
        List<String> names = List.of(
                "sun.net.httpserver.maxReqTime",
                "sun.net.httpserver.maxRspTime",
                "jdk.httpserver.maxConnections",
                "sun.net.httpserver.maxReqHeaderSize");
        Map<String, String> before = new java.util.HashMap<>();
        names.forEach(n -> before.put(n, System.getProperty(n)));
        try {
            names.forEach(System::clearProperty);
            System.setProperty("jdk.httpserver.maxConnections", "7");
            ManagerEndpoints.limitTheJdkServer();
            assertThat(System.getProperty("sun.net.httpserver.maxReqTime")).isEqualTo("10");
            assertThat(System.getProperty("sun.net.httpserver.maxRspTime")).isEqualTo("30");
            assertThat(System.getProperty("sun.net.httpserver.maxReqHeaderSize"))
                    .isEqualTo("32768");
            assertThat(System.getProperty("jdk.httpserver.maxConnections")).isEqualTo("7");
        } finally {
            before.forEach((n, v) -> {
                if (v == null) {
                    System.clearProperty(n);
                } else {
                    System.setProperty(n, v);
                }
            });
        }
    }

    @Test
    void plainHttpIsTheLocalDefault() throws Exception {
        try (ManagerEndpoints endpoints =
                new ManagerEndpoints(settings(), () -> "kyma_operator_up 1\n", () -> true, Optional.empty())) {
            int port = endpoints.metricsAddress().orElseThrow().getPort();
            HttpResponse<String> scrape = send(
                    HttpClient.newHttpClient(),
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")));
            assertThat(scrape.statusCode()).isEqualTo(200);
        }
    }

    private static EndpointSettings settings(String... flags) {
        String[] args = new String[flags.length + 4];
        System.arraycopy(flags, 0, args, 0, flags.length);
        args[flags.length] = "--metrics-bind-address";
        args[flags.length + 1] = "127.0.0.1:0";
        args[flags.length + 2] = "--health-probe-bind-address";
        args[flags.length + 3] = "0";
        return ManagerConfig.parse(args, Map.of()).endpoints();
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return client.send(request.timeout(HangCatcher.STEP).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A TLS context that trusts exactly the served certificate, as a scraper pinning it would. */
    private static SSLContext trusting(ServingCertificate certificate) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("metrics", certificate.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
