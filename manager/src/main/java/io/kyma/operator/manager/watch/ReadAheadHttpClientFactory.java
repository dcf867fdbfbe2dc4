package io.kyma.operator.manager.watch;

import io.kyma.operator.common.DaemonThreads;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * fabric8's JDK HTTP client, with every WebSocket (every watch) read through a {@link ReadAheadListener}. It plugs in
 * through the factory's public hook for the JDK client builder and wraps only the JDK's public types, so the client's
 * own classes are used as they are.
 */
public final class ReadAheadHttpClientFactory extends JdkHttpClientFactory {
    private final long limitChars;
    private final ReadAheadStats stats;
    private final ExecutorService decoders;

    /** @param limitChars most characters of messages waiting to be decoded per connection; must be positive */
    public ReadAheadHttpClientFactory(long limitChars, ReadAheadStats stats) {
        if (limitChars <= 0) {
            throw new IllegalArgumentException("read-ahead limit must be positive, got " + limitChars);
        }
        this.limitChars = limitChars;
        this.stats = stats;
        this.decoders = Executors.newCachedThreadPool(DaemonThreads.numbered("watch-decoder"));
    }

    @Override
    protected HttpClient.Builder createNewHttpClientBuilder() {
        return new Builder(super.createNewHttpClientBuilder());
    }

    private WebSocket.Listener readAhead(WebSocket.Listener listener) {
        return new ReadAheadListener(listener, new SerialExecutor(decoders), limitChars, stats);
    }

    private final class Builder implements HttpClient.Builder {
        private final HttpClient.Builder jdk;

        Builder(HttpClient.Builder jdk) {
            this.jdk = jdk;
        }

        @Override
        public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
            jdk.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public HttpClient.Builder connectTimeout(Duration duration) {
            jdk.connectTimeout(duration);
            return this;
        }

        @Override
        public HttpClient.Builder sslContext(SSLContext sslContext) {
            jdk.sslContext(sslContext);
            return this;
        }

        @Override
        public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
            jdk.sslParameters(sslParameters);
            return this;
        }

        @Override
        public HttpClient.Builder executor(Executor executor) {
            jdk.executor(executor);
            return this;
        }

        @Override
        public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
            jdk.followRedirects(policy);
            return this;
        }

        @Override
        public HttpClient.Builder version(HttpClient.Version version) {
            jdk.version(version);
            return this;
        }

        @Override
        public HttpClient.Builder priority(int priority) {
            jdk.priority(priority);
            return this;
        }

        @Override
        public HttpClient.Builder proxy(ProxySelector proxySelector) {
            jdk.proxy(proxySelector);
            return this;
        }

        @Override
        public HttpClient.Builder authenticator(Authenticator authenticator) {
            jdk.authenticator(authenticator);
            return this;
        }

        @Override
        public HttpClient build() {
            return new Client(jdk.build());
        }
    }

    /** The JDK client as built, except that its WebSockets read ahead. */
    private final class Client extends HttpClient {
        private final HttpClient jdk;

        Client(HttpClient jdk) {
            this.jdk = jdk;
        }

        @Override
        public WebSocket.Builder newWebSocketBuilder() {
            WebSocket.Builder builder = jdk.newWebSocketBuilder();
            return new WebSocket.Builder() {
                @Override
                public WebSocket.Builder header(String name, String value) {
                    builder.header(name, value);
                    return this;
                }

                @Override
                public WebSocket.Builder connectTimeout(Duration timeout) {
                    builder.connectTimeout(timeout);
                    return this;
                }

                @Override
                public WebSocket.Builder subprotocols(String mostPreferred, String... lesserPreferred) {
                    builder.subprotocols(mostPreferred, lesserPreferred);
                    return this;
                }

                @Override
                public CompletableFuture<WebSocket> buildAsync(URI uri, WebSocket.Listener listener) {
                    return builder.buildAsync(uri, readAhead(listener));
                }
            };
        }

        @Override
        public Optional<CookieHandler> cookieHandler() {
            return jdk.cookieHandler();
        }

        @Override
        public Optional<Duration> connectTimeout() {
            return jdk.connectTimeout();
        }

        @Override
        public Redirect followRedirects() {
            return jdk.followRedirects();
        }

        @Override
        public Optional<ProxySelector> proxy() {
            return jdk.proxy();
        }

        @Override
        public SSLContext sslContext() {
            return jdk.sslContext();
        }

        @Override
        public SSLParameters sslParameters() {
            return jdk.sslParameters();
        }

        @Override
        public Optional<Authenticator> authenticator() {
            return jdk.authenticator();
        }

        @Override
        public Version version() {
            return jdk.version();
        }

        @Override
        public Optional<Executor> executor() {
            return jdk.executor();
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
                throws IOException, InterruptedException {
            return jdk.send(request, handler);
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                HttpResponse.BodyHandler<T> handler) {
            return jdk.sendAsync(request, handler);
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
            return jdk.sendAsync(request, handler, pushPromiseHandler);
        }
    }
}
