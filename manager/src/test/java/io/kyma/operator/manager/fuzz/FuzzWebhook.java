package io.kyma.operator.manager.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.manager.secure.ServingCertificate;

/**
 * A validating admission webhook in this JVM, one per world, answering HTTPS on loopback with a self-signed
 * certificate: per tenant role it allows, denies (403, a message naming the webhook) or hangs (answers only once its
 * mode changes or the webhook closes, so the API server gives up after {@link #TIMEOUT_SECONDS} and, the failure
 * policy being Fail, refuses the write). A role's webhook configuration picks its namespace by a label whose value is
 * this world's, so a configuration left behind by a killed JVM matches no namespace.
 */
final class FuzzWebhook implements AutoCloseable {
    enum Mode {
        ALLOW,
        DENY,
        HANG
    }

    /** The API server's wait for an answer; kept short so that hanging runs stay short. */
    static final int TIMEOUT_SECONDS = 2;

    static final String LABEL = "fuzz.kyma-project.io/webhook";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String world;
    private final ServingCertificate certificate =
            ServingCertificate.selfSigned(List.of("127.0.0.1"), Clock.systemUTC());
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-webhook");
        t.setDaemon(true);
        return t;
    });
    private final HttpsServer server;
    private final Map<String, Mode> modes = new ConcurrentHashMap<>();
    private volatile CountDownLatch release = new CountDownLatch(1);
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicInteger holding = new java.util.concurrent.atomic.AtomicInteger();

    FuzzWebhook(String world) {
        this.world = world;
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setHttpsConfigurator(new HttpsConfigurator(certificate.sslContext()));
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    /** The webhook's name, as the API server quotes it in a refusal. */
    static String name(String role) {
        return role + ".gate.fuzz.kyma-project.io";
    }

    /** The label value that puts a role's namespace under its webhook. */
    String labelValue(String role) {
        return world + "-" + role;
    }

    String configName(String role) {
        return "fuzz-" + labelValue(role);
    }

    Mode mode(String role) {
        return modes.getOrDefault(role, Mode.ALLOW);
    }

    /** The answers being held back now. */
    int holding() {
        return holding.get();
    }

    /** Where the API server sends a role's reviews. */
    String url(String role) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + "/" + role;
    }

    java.security.cert.X509Certificate certificate() {
        return certificate.certificate();
    }

    /** Sets a role's mode; answers held by a hang are let go (as allowed, though the API server has given up). */
    void set(String role, Mode mode) {
        modes.put(role, mode);
        CountDownLatch held = release;
        release = new CountDownLatch(1);
        held.countDown();
    }

    /**
     * The configuration of a role's webhook: CREATE of HelmComponents, CREATE and UPDATE of Events, in the namespaces
     * labelled for that role; failure policy Fail, so a webhook that does not answer refuses the write.
     */
    ValidatingWebhookConfiguration configuration(String role) {
        String caBundle;
        try {
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(certificate.certificate().getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            caBundle = Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
        return new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata()
                .withName(configName(role))
                .endMetadata()
                .addNewWebhook()
                .withName(name(role))
                .withAdmissionReviewVersions("v1")
                .withSideEffects("None")
                .withFailurePolicy("Fail")
                .withTimeoutSeconds(TIMEOUT_SECONDS)
                .withNamespaceSelector(new LabelSelectorBuilder()
                        .withMatchLabels(Map.of(LABEL, labelValue(role)))
                        .build())
                .withNewClientConfig()
                .withUrl(url(role))
                .withCaBundle(caBundle)
                .endClientConfig()
                .withRules(
                        new RuleWithOperationsBuilder()
                                .withApiGroups(Kyma.GROUP)
                                .withApiVersions("*")
                                .withResources("helmcomponents")
                                .withOperations("CREATE")
                                .build(),
                        new RuleWithOperationsBuilder()
                                .withApiGroups("", "events.k8s.io")
                                .withApiVersions("*")
                                .withResources("events")
                                .withOperations("CREATE", "UPDATE")
                                .build())
                .endWebhook()
                .build();
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String role = exchange.getRequestURI().getPath().substring(1);
            JsonNode review;
            try (InputStream in = exchange.getRequestBody()) {
                review = JSON.readTree(in);
            }
            CountDownLatch held = release;
            holding.incrementAndGet();
            try {
                while (mode(role) == Mode.HANG && !closed) {
                    held.await(); // until some mode changes or the webhook closes
                    held = release;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                holding.decrementAndGet();
            }
            ObjectNode response = JSON.createObjectNode();
            response.put("uid", review.path("request").path("uid").asText());
            boolean allowed = mode(role) != Mode.DENY;
            response.put("allowed", allowed);
            if (!allowed) {
                response.putObject("status")
                        .put("code", 403)
                        .put("reason", "Forbidden")
                        .put("message", "the tenant's gate " + name(role) + " refuses this write");
            }
            ObjectNode body = JSON.createObjectNode();
            body.put("apiVersion", "admission.k8s.io/v1");
            body.put("kind", "AdmissionReview");
            body.set("response", response);
            byte[] bytes = JSON.writeValueAsBytes(body);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (IOException e) {
            // the API server gave up on a hanging answer and closed the connection
        }
    }

    @Override
    public void close() {
        closed = true;
        release.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
