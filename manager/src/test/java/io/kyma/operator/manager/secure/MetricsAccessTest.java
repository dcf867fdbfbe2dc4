package io.kyma.operator.manager.secure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.manager.secure.MetricsAccess.Decision;
import io.kyma.operator.manager.secure.MetricsAccess.User;
import io.kyma.operator.testing.MutableClock;

class MetricsAccessTest {
    private static final User SCRAPER =
            new User("system:serviceaccount:monitoring:prometheus", "1", List.of(), Map.of());
    private static final User OTHER = new User("system:serviceaccount:team-a:app", "2", List.of(), Map.of());

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));
    private final FakeReviews reviews = new FakeReviews();
    private final MetricsAccess access = new MetricsAccess(reviews, clock);

    /** Tokens "scraper" and "other" authenticate; only the scraper may get /metrics. */
    static final class FakeReviews implements MetricsAccess.Reviews {
        final List<String> calls = new ArrayList<>();
        boolean failing;

        @Override
        public Optional<User> authenticate(String token) throws MetricsAccess.ReviewFailedException {
            calls.add("authenticate " + token);
            fail();
            return switch (token) {
                case "scraper" -> Optional.of(SCRAPER);
                case "other" -> Optional.of(OTHER);
                default -> Optional.empty();
            };
        }

        @Override
        public boolean allowed(User user, String verb, String path) throws MetricsAccess.ReviewFailedException {
            calls.add("allowed " + user.name() + " " + verb + " " + path);
            fail();
            return user.equals(SCRAPER) && verb.equals("get") && path.equals("/metrics");
        }

        private void fail() throws MetricsAccess.ReviewFailedException {
            if (failing) {
                throw new MetricsAccess.ReviewFailedException("connection refused", null);
            }
        }
    }

    private Decision check(String header) {
        return access.check(Optional.ofNullable(header), "get", "/metrics");
    }

    @Test
    void aRequestWithoutABearerTokenIsUnauthenticatedWithoutAReview() {
        for (String header : new String[] {null, "", "Basic dXNlcjpwYXNz", "Bearer ", "Bearer a b", "Bearer \u0001x"}) {
            assertThat(check(header)).as(String.valueOf(header)).isEqualTo(Decision.UNAUTHENTICATED);
        }
        assertThat(check("Bearer " + "x".repeat(MetricsAccess.MAX_TOKEN_LENGTH + 1)))
                .isEqualTo(Decision.UNAUTHENTICATED);
        assertThat(reviews.calls).isEmpty();
    }

    @Test
    void anAuthorizedTokenIsAllowedAndBothAnswersAreCached() {
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        assertThat(check("bearer   scraper ")).isEqualTo(Decision.ALLOWED);
        assertThat(reviews.calls)
                .containsExactly(
                        "authenticate scraper", "allowed system:serviceaccount:monitoring:prometheus get /metrics");

        // the token's answer expires after a minute, the grant after five
        clock.advance(MetricsAccess.AUTHENTICATED_TTL);
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        assertThat(reviews.calls).hasSize(3).last().isEqualTo("authenticate scraper");
        clock.advance(MetricsAccess.ALLOWED_TTL);
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        assertThat(reviews.calls).hasSize(5);
    }

    @Test
    void anAuthenticatedUserWithoutTheGrantIsForbiddenAndTheDenialCachedBriefly() {
        assertThat(check("Bearer other")).isEqualTo(Decision.FORBIDDEN);
        assertThat(check("Bearer other")).isEqualTo(Decision.FORBIDDEN);
        assertThat(reviews.calls).hasSize(2);
        clock.advance(MetricsAccess.DENIED_TTL);
        assertThat(check("Bearer other")).isEqualTo(Decision.FORBIDDEN);
        assertThat(reviews.calls).hasSize(3).last().asString().startsWith("allowed");
    }

    @Test
    void anUnknownTokenIsUnauthenticatedAndRememberedForTenSeconds() {
        assertThat(check("Bearer made-up")).isEqualTo(Decision.UNAUTHENTICATED);
        assertThat(check("Bearer made-up")).isEqualTo(Decision.UNAUTHENTICATED);
        assertThat(reviews.calls).containsExactly("authenticate made-up");
        clock.advance(MetricsAccess.UNAUTHENTICATED_TTL);
        assertThat(check("Bearer made-up")).isEqualTo(Decision.UNAUTHENTICATED);
        assertThat(reviews.calls).hasSize(2);
    }

    @Test
    void aFloodOfMadeUpTokensIsThrottledWhileTheScraperIsStillReviewedAndServed() {
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        int reviewed = 0;
        int throttled = 0;
        for (int i = 0; i < 100; i++) {
            Decision d = check("Bearer flood-" + i);
            if (d == Decision.THROTTLED) {
                throttled++;
            } else {
                reviewed++;
            }
        }
        // the new tokens' burst, less the scraper's first review
        assertThat(reviewed).isEqualTo(MetricsAccess.REVIEW_BURST - 1);
        assertThat(throttled).isEqualTo(100 - reviewed);
        assertThat(Decision.THROTTLED.status).isEqualTo(503);
        assertThat(reviews.calls).hasSize(2 + reviewed);

        // a minute on, the flood goes on and has spent the new tokens' reviews; the scraper's token is due for a
        // review again, and gets it from the known tokens' share
        clock.advance(MetricsAccess.AUTHENTICATED_TTL);
        for (int i = 0; i < 100; i++) {
            check("Bearer later-flood-" + i);
        }
        assertThat(check("Bearer flood-0")).isEqualTo(Decision.THROTTLED);
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        assertThat(reviews.calls).last().isEqualTo("authenticate scraper");

        // five new tokens' reviews a second come back
        clock.advance(Duration.ofSeconds(1));
        long served = IntStream.range(0, 20)
                .mapToObj(i -> check("Bearer again-" + i))
                .filter(d -> d != Decision.THROTTLED)
                .count();
        assertThat(served).isEqualTo((long) MetricsAccess.REVIEWS_PER_SECOND);
    }

    @Test
    void aReviewWithoutAnAnswerIsUnavailableAndNotCached() {
        reviews.failing = true;
        assertThat(check("Bearer scraper")).isEqualTo(Decision.UNAVAILABLE);
        reviews.failing = false;
        assertThat(check("Bearer scraper")).isEqualTo(Decision.ALLOWED);
        assertThat(reviews.calls).hasSize(3);
    }

    @Test
    void madeUpTokensCannotPushTheScrapersOutAndTheirOwnCacheIsBounded() {
        MetricsAccess unthrottled = new MetricsAccess(reviews, clock, 1e6, 1_000_000);
        assertThat(unthrottled.check(Optional.of("Bearer scraper"), "get", "/metrics"))
                .isEqualTo(Decision.ALLOWED);
        for (int i = 0; i <= MetricsAccess.CACHE_SIZE + MetricsAccess.REFUSED_CACHE_SIZE; i++) {
            assertThat(unthrottled.check(Optional.of("Bearer made-up-" + i), "get", "/metrics"))
                    .isEqualTo(Decision.UNAUTHENTICATED);
        }
        int before = reviews.calls.size();
        assertThat(unthrottled.check(Optional.of("Bearer scraper"), "get", "/metrics"))
                .isEqualTo(Decision.ALLOWED);
        // the newest refused token is still known, the oldest was let go
        unthrottled.check(
                Optional.of("Bearer made-up-" + (MetricsAccess.CACHE_SIZE + MetricsAccess.REFUSED_CACHE_SIZE)),
                "get",
                "/metrics");
        assertThat(reviews.calls).hasSize(before);
        unthrottled.check(Optional.of("Bearer made-up-0"), "get", "/metrics");
        assertThat(reviews.calls).hasSize(before + 1);
    }
}
