package io.kyma.operator.common.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.kyma.operator.testing.HangCatcher;

/** Against a local HTTP server standing in for an API server behind a broken admission webhook. */
class KubernetesEventWriterTest {
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger intercepted = new AtomicInteger();
    private final CountDownLatch hangUntil = new CountDownLatch(1);
    private HttpServer server;
    private KubernetesClient client;

    /** @param status the server's answer, 0 for none */
    private KubernetesEventWriter writer(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> answer(exchange, status));
        server.start();
        client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                        // what the shared client does for every other request: retry 5xx and timeouts ten times
                        .withRequestRetryBackoffLimit(10)
                        .withRequestRetryBackoffInterval(1)
                        .build())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(builder ->
                        builder.addOrReplaceInterceptor("counting", new Interceptor() {
                            @Override
                            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                                intercepted.incrementAndGet();
                            }
                        }))
                .build();
        // a short deadline only where no answer comes; where one does, a deadline that only a hang reaches
        return new KubernetesEventWriter(client, status == 0 ? Duration.ofMillis(300) : HangCatcher.STEP);
    }

    private void answer(HttpExchange exchange, int status) throws IOException {
        requests.incrementAndGet();
        if (status == 0) {
            try {
                hangUntil.await(); // the webhook never answers while the test runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = (status == 201
                        ? "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"k1.abc\",\"namespace\":\"tenant\"}}"
                        : "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + status
                                + ",\"message\":\"Internal error occurred: failed calling webhook\"}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status == 0 ? 504 : status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @AfterEach
    void stop() {
        hangUntil.countDown();
        if (client != null) {
            client.close();
            client = null;
        }
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    private static Event event() {
        return new EventBuilder()
                .withNewMetadata()
                .withGenerateName("k1.")
                .withNamespace("tenant")
                .endMetadata()
                .withReason("Ready")
                .build();
    }

    @Test
    void anEventWriteIsOneRequestThroughTheClientsInterceptors() throws IOException {
        assertThat(writer(201).create(event())).isEqualTo("k1.abc");
        assertThat(requests).hasValue(1);
        assertThat(intercepted).as("the client's limiter sees it").hasValue(1);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES) // catches a hang only
    void aFailedOrUnansweredEventWriteIsNeverRetried() throws IOException {
        for (int status : new int[] {500, 502, 503, 504, 0}) {
            requests.set(0);
            KubernetesEventWriter writer = writer(status);
            assertThatThrownBy(() -> writer.create(event()))
                    .as("status %d", status)
                    .isInstanceOf(KubernetesClientException.class);
            assertThatThrownBy(() -> writer.aggregate("tenant", "k1.abc", 2, "2026-11-28T10:00:00Z"))
                    .isInstanceOf(KubernetesClientException.class);
            // a call returns only after its retries: the requests that reach the server by then are all there are
            await().atMost(HangCatcher.STEP).until(() -> requests.get() >= 2);
            assertThat(requests).as("status %d: one request per call", status).hasValue(2);
            stop();
        }
    }
}
