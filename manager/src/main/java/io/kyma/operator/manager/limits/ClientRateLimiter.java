package io.kyma.operator.manager.limits;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Client-side QPS/burst for the fabric8 client, which has none of its own (client-go's {@code rest.Config{QPS,
 * Burst}}). Every request takes a token before it is sent and waits for it; nothing fails. A watch is one request
 * and so counts once, when it opens.
 */
public final class ClientRateLimiter implements Interceptor {
    public static final String NAME = "client-rate-limiter";
    private final TokenBucket bucket;
    private final Consumer<Duration> waitRecorder;

    public ClientRateLimiter(TokenBucket bucket, Consumer<Duration> waitRecorder) {
        this.bucket = bucket;
        this.waitRecorder = waitRecorder;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        Duration wait = bucket.reserve();
        waitRecorder.accept(wait);
        if (wait.isZero()) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(wait.toNanos());
        } catch (InterruptedException e) {
            // The caller is being stopped; let the request go and the interrupt surface there.
            Thread.currentThread().interrupt();
        }
    }
}
