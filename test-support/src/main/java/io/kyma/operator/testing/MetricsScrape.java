package io.kyma.operator.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * One GET of an operator's HTTPS {@code /metrics}, with a bearer token, trusting whatever certificate it serves (as
 * the shipped ServiceMonitor does with its self-signed one: {@code insecureSkipVerify}).
 */
public final class MetricsScrape {
    private MetricsScrape() {}

    public static HttpResponse<String> get(InetSocketAddress address, Optional<String> token)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(trustingAnyCertificate())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("https://" + address.getHostString() + ":" + address.getPort() + "/metrics"))
                .timeout(Duration.ofSeconds(30));
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static SSLContext trustingAnyCertificate() {
        X509TrustManager any = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {any}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
