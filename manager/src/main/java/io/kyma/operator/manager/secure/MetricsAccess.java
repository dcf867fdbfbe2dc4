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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read {@code /metrics}, decided as kubebuilder's secure metrics decide it: the bearer token is authenticated
 * by the API server (a TokenReview) and the user it names authorized for {@code get} on the path (a
 * SubjectAccessReview of a non-resource URL), so access is granted by RBAC ({@code nonResourceURLs: ["/metrics"]}).
 * <p>
 * Answers are cached as controller-runtime's authentication filter caches them (a token 1 min, 10 s when refused; an
 * allowed user 5 min, a denied one 30 s), keyed by the token's SHA-256. Tokens the API server accepted, refused tokens
 * and grants are kept apart, each bounded, so made-up tokens cannot push a scraper's out. Reviews the caches cannot
 * answer take a token from one of two buckets of {@link #REVIEWS_PER_SECOND} a second (a burst of
 * {@link #REVIEW_BURST}): one for tokens never accepted, one for tokens accepted before (a scraper's, every minute),
 * so a flood of made-up tokens is answered 503 while the scraper is still reviewed and served.
 */
public final class MetricsAccess {
    public static final int CACHE_SIZE = 1024;
    public static final int REFUSED_CACHE_SIZE = 256;
    public static final double REVIEWS_PER_SECOND = 5;
    public static final int REVIEW_BURST = 10;
    /** Longer bearer tokens are refused without a review (a projected ServiceAccount token is about 1 KiB). */
    public static final int MAX_TOKEN_LENGTH = 16 * 1024;

    static final Duration AUTHENTICATED_TTL = Duration.ofMinutes(1);
    static final Duration UNAUTHENTICATED_TTL = Duration.ofSeconds(10);
    static final Duration ALLOWED_TTL = Duration.ofMinutes(5);
    static final Duration DENIED_TTL = Duration.ofSeconds(30);
    private static final Duration WARN_EVERY = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(MetricsAccess.class);

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
        THROTTLED(503, "Too many new tokens to review; retry in a second"),
        UNAVAILABLE(503, "The API server did not answer the review; retry");

        public final int status;
        public final String message;

        Decision(int status, String message) {
            this.status = status;
            this.message = message;
        }
    }

    private record Cached<T>(T value, Instant expires) {}

    /** A token bucket on the clock. */
    private static final class Bucket {
        private final double perSecond;
        private final int burst;
        private double tokens;
        private Instant refilled;

        Bucket(double perSecond, int burst, Instant now) {
            this.perSecond = perSecond;
            this.burst = burst;
            this.tokens = burst;
            this.refilled = now;
        }

        synchronized boolean take(Instant now) {
            double elapsed = Math.max(0, Duration.between(refilled, now).toNanos() / 1e9);
            tokens = Math.min(burst, tokens + elapsed * perSecond);
            refilled = now;
            if (tokens < 1) {
                return false;
            }
            tokens -= 1;
            return true;
        }
    }

    private final Reviews reviews;
    private final Clock clock;
    /** Tokens the API server accepted; kept past their expiry, so a known token is recognised when it is due again. */
    private final Map<String, Cached<User>> accepted = lru(CACHE_SIZE);

    private final Map<String, Cached<Boolean>> refused = lru(REFUSED_CACHE_SIZE);
    private final Map<String, Cached<Boolean>> grants = lru(CACHE_SIZE);
    private final Bucket newTokens;
    private final Bucket knownTokens;
    private Instant warned;

    public MetricsAccess(Reviews reviews, Clock clock) {
        this(reviews, clock, REVIEWS_PER_SECOND, REVIEW_BURST);
    }

    MetricsAccess(Reviews reviews, Clock clock, double reviewsPerSecond, int reviewBurst) {
        this.reviews = reviews;
        this.clock = clock;
        this.newTokens = new Bucket(reviewsPerSecond, reviewBurst, clock.instant());
        this.knownTokens = new Bucket(reviewsPerSecond, reviewBurst, clock.instant());
    }

    /** The decision for a request with this {@code Authorization} header (absent when there is none). */
    public Decision check(Optional<String> authorization, String verb, String path) {
        Optional<String> token = authorization.flatMap(MetricsAccess::bearer);
        if (token.isEmpty()) {
            return Decision.UNAUTHENTICATED;
        }
        String key = sha256(token.get());
        try {
            Optional<Cached<User>> known = get(accepted, key);
            User user;
            if (known.isPresent() && fresh(known.get())) {
                user = known.get().value();
            } else if (get(refused, key).filter(this::fresh).isPresent()) {
                return Decision.UNAUTHENTICATED;
            } else {
                if (!(known.isPresent() ? knownTokens : newTokens).take(clock.instant())) {
                    return Decision.THROTTLED;
                }
                Optional<User> reviewed = reviews.authenticate(token.get());
                if (reviewed.isEmpty()) {
                    remove(accepted, key);
                    put(refused, key, true, UNAUTHENTICATED_TTL);
                    return Decision.UNAUTHENTICATED;
                }
                user = reviewed.get();
                put(accepted, key, user, AUTHENTICATED_TTL);
            }
            String grantKey = key + " " + verb + " " + path;
            Optional<Cached<Boolean>> grant = get(grants, grantKey).filter(this::fresh);
            boolean allowed;
            if (grant.isPresent()) {
                allowed = grant.get().value();
            } else {
                if (!knownTokens.take(clock.instant())) {
                    return Decision.THROTTLED;
                }
                allowed = reviews.allowed(user, verb, path);
                put(grants, grantKey, allowed, allowed ? ALLOWED_TTL : DENIED_TTL);
            }
            return allowed ? Decision.ALLOWED : Decision.FORBIDDEN;
        } catch (ReviewFailedException e) {
            warnAtMostEveryMinute(e);
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

    private synchronized void warnAtMostEveryMinute(ReviewFailedException e) {
        Instant now = clock.instant();
        if (warned == null || !now.isBefore(warned.plus(WARN_EVERY))) {
            warned = now;
            LOG.warn("/metrics answers 503: {}", e.getMessage());
        }
    }

    private boolean fresh(Cached<?> entry) {
        return clock.instant().isBefore(entry.expires());
    }

    private static <T> Optional<Cached<T>> get(Map<String, Cached<T>> cache, String key) {
        synchronized (cache) {
            return Optional.ofNullable(cache.get(key));
        }
    }

    private <T> void put(Map<String, Cached<T>> cache, String key, T value, Duration ttl) {
        synchronized (cache) {
            cache.put(key, new Cached<>(value, clock.instant().plus(ttl)));
        }
    }

    private static void remove(Map<String, ?> cache, String key) {
        synchronized (cache) {
            cache.remove(key);
        }
    }

    private static <T> Map<String, T> lru(int bound) {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, T> eldest) {
                return size() > bound;
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
