package io.kyma.operator.run;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into memory up to a limit. A body that declares a larger length is refused before a byte is
 * read; one that turns out larger, or never ends, is cut off at the limit and its connection closed. Either way the
 * heap holds at most {@code limit} bytes per request, whatever the server sends.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final long limit;
    private final long declaredLength;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    private BoundedBody(long limit, long declaredLength) {
        this.limit = limit;
        this.declaredLength = declaredLength;
    }

    static HttpResponse.BodyHandler<byte[]> handler(long limit) {
        return info -> new BoundedBody(
                limit, info.headers().firstValueAsLong("content-length").orElse(-1));
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (declaredLength > limit) {
            tooLarge();
        } else {
            subscription.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            if (buffer.size() + (long) item.remaining() > limit) {
                tooLarge();
                return;
            }
            byte[] bytes = new byte[item.remaining()];
            item.get(bytes);
            buffer.writeBytes(bytes);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        body.complete(buffer.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    private void tooLarge() {
        subscription.cancel();
        buffer.reset();
        body.completeExceptionally(new RemoteJobException(
                RemoteJobException.Kind.TOO_LARGE,
                "the job service's answer is larger than " + limit + " bytes (--remote-response-limit)"));
    }
}
