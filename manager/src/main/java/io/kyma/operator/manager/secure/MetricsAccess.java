package io.kyma.operator.manager.secure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who may read {@code /metrics}, decided as kubebuilder's secure metrics decide it: the bearer token is authenticated
 * by the API server (a TokenReview) and the user it names authorized for {@code get} on the path (a
 * SubjectAccessReview of a non-resource URL), so access is granted by RBAC ({@code nonResourceURLs: ["/metrics"]}).
 * <p>
 * Answers are cached as the API server's delegating authenticator and authorizer cache them (a token 1 min, 10 s when
 * refused; an allowed user 5 min, a denied one 30 s), keyed by the token's SHA-256, at most {@link #CACHE_SIZE}
 * entries each. Reviews the cache cannot answer are limited to {@link #REVIEWS_PER_SECOND} a second (a burst of
 * {@link #REVIEW_BURST}): a flood of made-up tokens gets 429, not a share of the write budget the reconcilers share.
 */
public final class MetricsAccess {
    public static final int CACHE_SIZE = 1024;
    public static final double REVIEWS_PER_SECOND = 5;
    public static final int REVIEW_BURST = 10;
    /** Longer bearer tokens are refused without a review (a projected ServiceAccount token is about 1 KiB). */
    public static final int MAX_TOKEN_LENGTH = 16 * 1024;

    static final Duration AUTHENTICATED_TTL = Duration.ofMinutes(1);
    static final Duration UNAUTHENTICATED_TTL = Duration.ofSeconds(10);
    static final Duration ALLOWED_TTL = Duration.ofMinutes(5);
    static final Duration DENIED_TTL = Duration.ofSeconds(30);

    /** The user a token authenticates as, as the TokenReview gives it. */
    public record User(String name, String uid, List<String> groups, Map<String, List<String>> extra) {}

    /** The API server's answers; each call is one request. */
    public interface Reviews {
        /** The user the token is, or empty when the API server does not authenticate it. */
        Optional<User> authenticate(String token) throws ReviewFailedException;

        /** Whether {@code user} may {@code verb} the non-resource {@code path}. */
        boolean allowed(User user, String verb, String path) throws ReviewFailedException;
    }

    /** A review that got no answer (the API server unreachable, slow or refusing the operator). */
    public static final class ReviewFailedException extends Exception {
        public ReviewFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The answer to one request, with its HTTP status. */
    public enum Decision {
        ALLOWED(200, "ok"),
        UNAUTHENTICATED(401, "Unauthorized: a bearer token the API server authenticates is required"),
        FORBIDDEN(403, "Forbidden: the token's user may not get this path (RBAC nonResourceURLs)"),
        THROTTLED(429, "Too many requests with new tokens; retry in a second"),
        UNAVAILABLE(503, "The API server did not answer the review; retry");

        public final int status;
        public final String message;

        Decision(int status, String message) {
            this.status = status;
            this.message = message;
        }
    }

    private record Cached<T>(T value, Instant expires) {}

    private final Reviews reviews;
    private final Clock clock;
    private final Map<String, Cached<Optional<User>>> tokens = lru();
    private final Map<String, Cached<Boolean>> grants = lru();
    private final double reviewsPerSecond;
    private final int reviewBurst;
    private double tokensInBucket;
    private Instant refilled;

    public MetricsAccess(Reviews reviews, Clock clock) {
        this(reviews, clock, REVIEWS_PER_SECOND, REVIEW_BURST);
    }

    MetricsAccess(Reviews reviews, Clock clock, double reviewsPerSecond, int reviewBurst) {
        this.reviews = reviews;
        this.clock = clock;
        this.reviewsPerSecond = reviewsPerSecond;
        this.reviewBurst = reviewBurst;
        this.tokensInBucket = reviewBurst;
        this.refilled = clock.instant();
    }

    /** The decision for a request with this {@code Authorization} header (absent when there is none). */
    public Decision check(Optional<String> authorization, String verb, String path) {
        Optional<String> token = authorization.flatMap(MetricsAccess::bearer);
        if (token.isEmpty()) {
            return Decision.UNAUTHENTICATED;
        }
        String key = sha256(token.get());
        try {
            Optional<Cached<Optional<User>>> known = fresh(tokens, key);
            Optional<User> user;
            if (known.isPresent()) {
                user = known.get().value();
            } else {
                if (!takeReview()) {
                    return Decision.THROTTLED;
                }
                user = reviews.authenticate(token.get());
                remember(tokens, key, user, user.isPresent() ? AUTHENTICATED_TTL : UNAUTHENTICATED_TTL);
            }
            if (user.isEmpty()) {
                return Decision.UNAUTHENTICATED;
            }
            String grantKey = key + " " + verb + " " + path;
            Optional<Cached<Boolean>> grant = fresh(grants, grantKey);
            boolean allowed;
            if (grant.isPresent()) {
                allowed = grant.get().value();
            } else {
                if (!takeReview()) {
                    return Decision.THROTTLED;
                }
                allowed = reviews.allowed(user.get(), verb, path);
                remember(grants, grantKey, allowed, allowed ? ALLOWED_TTL : DENIED_TTL);
            }
            return allowed ? Decision.ALLOWED : Decision.FORBIDDEN;
        } catch (ReviewFailedException e) {
            return Decision.UNAVAILABLE;
        }
    }

    /** The token of {@code Bearer <token>}, if the header is one and the token is plausible. */
    static Optional<String> bearer(String header) {
        String trimmed = header.strip();
        if (trimmed.length() < 8 || !trimmed.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = trimmed.substring(7).strip();
        if (token.isEmpty()
                || token.length() > MAX_TOKEN_LENGTH
                || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return Optional.empty();
        }
        return Optional.of(token);
    }

    private synchronized boolean takeReview() {
        Instant now = clock.instant();
        double elapsed = Math.max(0, Duration.between(refilled, now).toNanos() / 1e9);
        tokensInBucket = Math.min(reviewBurst, tokensInBucket + elapsed * reviewsPerSecond);
        refilled = now;
        if (tokensInBucket < 1) {
            return false;
        }
        tokensInBucket -= 1;
        return true;
    }

    private <T> Optional<Cached<T>> fresh(Map<String, Cached<T>> cache, String key) {
        synchronized (cache) {
            Cached<T> entry = cache.get(key);
            if (entry == null || !clock.instant().isBefore(entry.expires())) {
                return Optional.empty();
            }
            return Optional.of(entry);
        }
    }

    private <T> void remember(Map<String, Cached<T>> cache, String key, T value, Duration ttl) {
        synchronized (cache) {
            cache.put(key, new Cached<>(value, clock.instant().plus(ttl)));
        }
    }

    private static <T> Map<String, T> lru() {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, T> eldest) {
                return size() > CACHE_SIZE;
            }
        };
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
