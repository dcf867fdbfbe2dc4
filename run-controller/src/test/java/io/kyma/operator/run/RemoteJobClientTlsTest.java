package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * HTTPS job services named by a tenant's names, against real TLS servers on loopback addresses: the JDK's client is
 * never given the name to look up (it would, outside any check, when it retries a request whose connection closed
 * unanswered), and the certificate is still checked against the name. The names used here resolve nowhere but in the
 * operator's own resolver, so any look-up by the JDK fails the call.
 */
class RemoteJobClientTlsTest {
    /** One timer for every client the tests make: the request timeouts. */
    private static final JobCalls.Timer ALARMS = JobCalls.timerThread();

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path dir;

    private static KeyStore tenant;
    private static KeyStore other;

    private final List<HttpsServer> servers = new CopyOnWriteArrayList<>();
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final AtomicInteger unansweredGets = new AtomicInteger();
    private volatile InetAddress resolvesTo;

    @BeforeAll
    static void certificates() throws Exception {
        tenant = keyStore("jobs.tenant.test");
        other = keyStore("other.test");
    }

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    /** A key pair and a certificate for {@code name}, made by the JDK's keytool. */
    private static KeyStore keyStore(String name) throws Exception {
        Path file = dir.resolve(name + ".p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "server",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=" + name,
                        "-ext",
                        "san=dns:" + name,
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        file.toString(),
                        "-storepass",
                        new String(PASSWORD),
                        "-keypass",
                        new String(PASSWORD))
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(output).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    private int serve(String address, int port, KeyStore keys) throws IOException, GeneralSecurityException {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 8);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        server.createContext("/", exchange -> {
            heard.add(address + " " + exchange.getRequestMethod() + " "
                    + exchange.getRequestHeaders().getFirst("Host"));
            if (exchange.getRequestMethod().equals("GET") && unansweredGets.getAndDecrement() > 0) {
                exchange.close(); // the connection closes without a byte of an answer: the JDK's client retries
                return;
            }
            byte[] body = "{\"id\":\"job-1\",\"state\":\"running\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return server.getAddress().getPort();
    }

    private RemoteJobClient client() throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("tenant", tenant.getCertificate("server"));
        trusted.setCertificateEntry("other", other.getCertificate("server"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.parse("127.0.0.0/8"), Optional.empty(), Set.of(), host ->
                        new InetAddress[] {resolvesTo});
        // timeouts that only a hang reaches: no answer here is meant to be late, and a cold TLS handshake is slow
        return new RemoteJobClient(
                Duration.ofMinutes(1), Duration.ofMinutes(2), 64 * 1024, addresses, 2, context, ALARMS);
    }

    @Test
    void aRetryOfTheJdksOwnAfterAConnectionClosedUnansweredGoesToTheAddressChecked() throws Exception {
        int port = serve("127.0.0.1", 0, tenant);
        serve("127.0.0.2", port, tenant);
        JobServerUrl url = JobServerUrl.parse("https://jobs.tenant.test:" + port);
        try (RemoteJobClient client = client()) {
            resolvesTo = InetAddress.getByName("127.0.0.1");
            JobService.Start start = client.start(url, "build", Map.of(), "uid").join();
            assertThat(start.server().pinned()).contains(InetAddress.getByName("127.0.0.1"));

            resolvesTo = InetAddress.getByName("127.0.0.2");
            unansweredGets.set(1);
            assertThat(client.get(start.server(), "job-1", 0).join().state()).isEqualTo("running");
            assertThat(heard)
                    .as("the start, the poll closed unanswered, and the JDK's retry of it, all at the start's"
                            + " address with the name as Host")
                    .containsExactly(
                            "127.0.0.1 POST jobs.tenant.test:" + port,
                            "127.0.0.1 GET jobs.tenant.test:" + port,
                            "127.0.0.1 GET jobs.tenant.test:" + port);
        }
    }

    @Test
    void theCertificateIsCheckedAgainstTheNameNotTheAddress() throws Exception {
        int port = serve("127.0.0.1", 0, other);
        resolvesTo = InetAddress.getByName("127.0.0.1");
        try (RemoteJobClient client = client()) {
            assertThatThrownBy(() -> client.get(JobServerUrl.parse("https://jobs.tenant.test:" + port), "job-1", 0)
                            .join())
                    .as("a certificate for another name")
                    .hasCauseInstanceOf(RemoteJobException.class);
            assertThat(client.get(JobServerUrl.parse("https://other.test:" + port), "job-1", 0)
                            .join()
                            .state())
                    .as("the certificate's own name")
                    .isEqualTo("running");
        }
    }
}
