package io.kyma.operator.manager.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.testing.HangCatcher;

/** The fuzz suite's admission webhook without a cluster: what it answers in each mode, per role. */
class FuzzWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachRoleIsAnsweredByItsOwnMode() throws Exception {
        try (FuzzWebhook webhook = new FuzzWebhook("w1")) {
            HttpClient client = trusting(webhook);
            webhook.set("a", FuzzWebhook.Mode.DENY);
            for (String uid : List.of("u1", "u2", "u3")) {
                JsonNode denied = review(client, webhook, "a", uid).join();
                assertThat(denied.path("response").path("uid").asText()).isEqualTo(uid);
                assertThat(denied.path("response").path("allowed").asBoolean()).isFalse();
                assertThat(denied.path("response").path("status").path("code").asInt())
                        .isEqualTo(403);
                assertThat(denied.path("response")
                                .path("status")
                                .path("message")
                                .asText())
                        .contains(FuzzWebhook.name("a"));
                JsonNode allowed = review(client, webhook, "b", uid).join();
                assertThat(allowed.path("response").path("allowed").asBoolean()).isTrue();
            }
        }
    }

    @Test
    void aHangingRoleIsAnsweredOnlyOnceItsModeChanges() {
        try (FuzzWebhook webhook = new FuzzWebhook("w2")) {
            HttpClient client = trusting(webhook);
            webhook.set("a", FuzzWebhook.Mode.HANG);
            List<CompletableFuture<JsonNode>> held =
                    List.of(review(client, webhook, "a", "h1"), review(client, webhook, "a", "h2"));
            await().atMost(HangCatcher.STEP).until(() -> webhook.holding() == held.size());
            // another role's change lets the held answers look again, but they stay held
            webhook.set("b", FuzzWebhook.Mode.DENY);
            assertThat(review(client, webhook, "b", "x")
                            .join()
                            .path("response")
                            .path("allowed")
                            .asBoolean())
                    .isFalse();
            assertThat(webhook.holding()).isEqualTo(2);
            assertThat(held).noneMatch(CompletableFuture::isDone);

            webhook.set("a", FuzzWebhook.Mode.ALLOW);
            for (CompletableFuture<JsonNode> answer : held) {
                assertThat(answer.join().path("response").path("allowed").asBoolean())
                        .isTrue();
            }
        }
    }

    @Test
    void theConfigurationTrustsTheServedCertificateAndPicksTheRolesNamespaceByLabel() {
        try (FuzzWebhook webhook = new FuzzWebhook("w3")) {
            var webhooks = webhook.configuration("b").getWebhooks();
            assertThat(webhooks).singleElement().satisfies(w -> {
                assertThat(w.getName()).isEqualTo(FuzzWebhook.name("b"));
                assertThat(w.getTimeoutSeconds()).isEqualTo(FuzzWebhook.TIMEOUT_SECONDS);
                assertThat(w.getFailurePolicy()).isEqualTo("Fail");
                assertThat(w.getNamespaceSelector().getMatchLabels())
                        .containsEntry(FuzzWebhook.LABEL, webhook.labelValue("b"));
                assertThat(w.getClientConfig().getUrl()).isEqualTo(webhook.url("b"));
                assertThat(new String(java.util.Base64.getDecoder()
                                .decode(w.getClientConfig().getCaBundle())))
                        .startsWith("-----BEGIN CERTIFICATE-----\n")
                        .endsWith("-----END CERTIFICATE-----\n");
            });
            try (FuzzWebhook other = new FuzzWebhook("w4")) {
                assertThat(webhook.labelValue("b")).isNotEqualTo(other.labelValue("b"));
            }
        }
    }

    private static CompletableFuture<JsonNode> review(HttpClient client, FuzzWebhook webhook, String role, String uid) {
        String body = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\""
                + uid + "\"}}";
        return client.sendAsync(
                        HttpRequest.newBuilder(URI.create(webhook.url(role)))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> {
                    try {
                        return JSON.readTree(r.body());
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
    }

    /** A client trusting only the webhook's certificate, as the API server does through the caBundle. */
    private static HttpClient trusting(FuzzWebhook webhook) {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("webhook", webhook.certificate());
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(context).build();
        } catch (java.security.GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
