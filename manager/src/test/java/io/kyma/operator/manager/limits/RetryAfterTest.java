package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kyma.operator.testing.MutableClock;

class RetryAfterTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<Duration> waits = new ArrayList<>();
    private final CompletableFuture<Boolean> pending = new CompletableFuture<>();
    private final RetryAfter interceptor = new RetryAfter(clock, wait -> {
        waits.add(wait);
        return pending;
    });

    @Test
    void aThrottledAnswerIsHeldBackForTheSecondsTheServerAsked() {
        CompletableFuture<Boolean> held = interceptor.afterFailure(null, response(429, "1"), null);
        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(held).isNotDone();
        pending.complete(false);
        assertThat(held.join())
                .as("fabric8 itself retries; the interceptor never resends")
                .isFalse();
    }

    @Test
    void serverErrorsWithTheHeaderWaitTooAndAnswersWithoutItDoNot() {
        interceptor.afterFailure(null, response(503, "1"), null);
        assertThat(interceptor.afterFailure(null, response(500, null), null)).isCompletedWithValue(false);
        assertThat(waits).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void answersThatFabric8DoesNotRetryAreNotHeld() {
        assertThat(interceptor.afterFailure(null, response(409, "5"), null)).isCompletedWithValue(false);
        assertThat(interceptor.afterFailure(null, response(404, "5"), null)).isCompletedWithValue(false);
        assertThat(waits).isEmpty();
    }

    @Test
    void valuesAreSecondsOrAnHttpDateCappedAndNeverNegative() {
        String inOneSecond = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                clock.instant().plusSeconds(1).atZone(ZoneOffset.UTC));
        assertThat(RetryAfter.wait("1", clock)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.wait(" 1 ", clock)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.wait(inOneSecond, clock)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.wait("7", clock)).contains(RetryAfter.MAX_WAIT);
        assertThat(RetryAfter.wait("3600", clock)).contains(RetryAfter.MAX_WAIT);
        assertThat(RetryAfter.wait("99999999999999999999", clock)).contains(RetryAfter.MAX_WAIT);
        assertThat(RetryAfter.wait("0", clock)).isEmpty();
        assertThat(RetryAfter.wait("-1", clock)).isEmpty();
        assertThat(RetryAfter.wait("Thu, 01 Jan 2025 00:00:00 GMT", clock))
                .as("a date in the past")
                .isEmpty();
        assertThat(RetryAfter.wait("soon", clock)).isEmpty();
        assertThat(RetryAfter.wait(null, clock)).isEmpty();
    }

    private static HttpResponse<Void> response(int code, String retryAfter) {
        Map<String, List<String>> headers = retryAfter == null ? Map.of() : Map.of("Retry-After", List.of(retryAfter));
        return new HttpResponse<>() {
            @Override
            public int code() {
                return code;
            }

            @Override
            public Void body() {
                return null;
            }

            @Override
            public HttpRequest request() {
                return null;
            }

            @Override
            public Optional<HttpResponse<?>> previousResponse() {
                return Optional.empty();
            }

            @Override
            public List<String> headers(String key) {
                return headers.getOrDefault(key, List.of());
            }

            @Override
            public Map<String, List<String>> headers() {
                return headers;
            }
        };
    }
}
