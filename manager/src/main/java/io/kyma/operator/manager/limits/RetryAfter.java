package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Makes the client wait as long as the API server's {@code Retry-After} asks before it tries a request again.
 * fabric8 7.5.2 retries 429 and 5xx answers on its own and reads {@code Retry-After}, but then schedules the retry
 * after its own backoff (100 ms at first) instead of the value it read. This holds a failed answer that carries the
 * header back until that time has passed, without blocking a thread, so the retry that follows comes no sooner.
 * A wait is capped at {@link #MAX_WAIT}: a kube-apiserver that sheds load asks for 1 s, and every call must end within
 * its bound ({@code ClientSettings#callBound}); a longer ask is kept by the controller's backoff after the call fails.
 */
public final class RetryAfter implements Interceptor {
    public static final String NAME = "retry-after";
    public static final Duration MAX_WAIT = Duration.ofSeconds(2);

    private final Clock clock;
    private final Function<Duration, CompletableFuture<Boolean>> delay;

    public RetryAfter(Clock clock) {
        this(
                clock,
                wait -> CompletableFuture.supplyAsync(
                        () -> false, CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS)));
    }

    /** @param delay completes with false (no resend by the interceptor) once the given time has passed */
    RetryAfter(Clock clock, Function<Duration, CompletableFuture<Boolean>> delay) {
        this.clock = clock;
        this.delay = delay;
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        int code = response.code();
        if (code != 429 && code < 500) {
            return CompletableFuture.completedFuture(false); // fabric8 does not retry these
        }
        return wait(response.header("Retry-After"), clock)
                .map(delay)
                .orElseGet(() -> CompletableFuture.completedFuture(false));
    }

    /**
     * How long a {@code Retry-After} value asks to wait: delay-seconds or an HTTP date (RFC 9110), at most
     * {@link #MAX_WAIT}; empty when absent, unreadable or already past.
     */
    static Optional<Duration> wait(String retryAfter, Clock clock) {
        if (retryAfter == null || retryAfter.isBlank()) {
            return Optional.empty();
        }
        Duration wait;
        String value = retryAfter.trim();
        if (value.chars().allMatch(Character::isDigit)) {
            wait = value.length() > 6 ? MAX_WAIT : Duration.ofSeconds(Long.parseLong(value));
        } else {
            try {
                wait = Duration.between(
                        clock.instant(),
                        ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                                .toInstant());
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        if (wait.isNegative() || wait.isZero()) {
            return Optional.empty();
        }
        return Optional.of(wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait);
    }
}
