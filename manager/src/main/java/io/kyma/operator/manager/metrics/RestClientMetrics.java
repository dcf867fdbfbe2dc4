package io.kyma.operator.manager.metrics;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * client-go's {@code rest_client_*} metrics for the fabric8 client. The latency is measured from when the request
 * leaves the interceptors, so it excludes the client rate limiter's wait, which has a metric of its own.
 */
public final class RestClientMetrics implements Interceptor {
    public static final String NAME = "rest-client-metrics";
    private final OperatorMetrics metrics;
    private final Map<HttpRequest, Long> started = Collections.synchronizedMap(new WeakHashMap<>());

    public RestClientMetrics(OperatorMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(
            AsyncBody.Consumer<List<ByteBuffer>> consumer, HttpRequest request) {
        started.put(request, System.nanoTime());
        return consumer;
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        String method = request.method().toUpperCase(Locale.ROOT);
        String host = request.uri().getHost()
                + (request.uri().getPort() > 0 ? ":" + request.uri().getPort() : "");
        metrics.restRequests(Integer.toString(response.code()), method, host).increment();
        Long start = started.remove(request);
        if (start != null) {
            metrics.restRequestDuration(method, host).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
        started.remove(request);
        String host = request.uri().getHost()
                + (request.uri().getPort() > 0 ? ":" + request.uri().getPort() : "");
        metrics.restRequests("<error>", request.method().toUpperCase(Locale.ROOT), host)
                .increment();
    }
}
