package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.MutableClock;

class ClientRateLimiterTest {

    @Test
    void theFlowIsTheNamespaceInThePath() {
        assertThat(
                        ClientRateLimiter.flowOf(
                                URI.create(
                                        "https://api:6443/apis/inventory.kyma-project.io/v1alpha1/namespaces/team-a/helmcomponents/x/status")))
                .isEqualTo("team-a");
        assertThat(ClientRateLimiter.flowOf(URI.create("https://api:6443/api/v1/namespaces/team-b")))
                .isEqualTo("team-b");
        assertThat(ClientRateLimiter.flowOf(URI.create(
                        "https://api:6443/apis/inventory.kyma-project.io/v1alpha1/kymas?watch=true&resourceVersion=1")))
                .as("a watch across namespaces")
                .isEmpty();
        assertThat(ClientRateLimiter.flowOf(URI.create("https://api:6443/apis/x/v1/kymas?labelSelector=namespaces/a")))
                .as("the query is not the path")
                .isEmpty();
        assertThat(ClientRateLimiter.flowOf(URI.create("https://api:6443/apis/g.io/v1/widgets/namespaces")))
                .as("a cluster-scoped object named namespaces")
                .isEmpty();
        assertThat(ClientRateLimiter.flowOf(URI.create("https://proxy/clusters/namespaces/x/api/v1/namespaces/c/pods")))
                .as("behind a proxy whose own path has the word")
                .isEqualTo("c");
        assertThat(ClientRateLimiter.flowOf(null)).isEmpty();
    }

    @Test
    void requestsForLeasesTakeNoToken() {
        assertThat(ClientRateLimiter.lease(URI.create(
                        "https://api:6443/apis/coordination.k8s.io/v1/namespaces/kyma-system/leases/kyma-operator")))
                .isTrue();
        assertThat(ClientRateLimiter.lease(
                        URI.create("https://proxy/x/apis/coordination.k8s.io/v1/namespaces/a/leases?limit=5")))
                .as("the Leases of a namespace, behind a proxy")
                .isTrue();
        assertThat(ClientRateLimiter.lease(URI.create(
                        "https://api:6443/apis/inventory.kyma-project.io/v1alpha1/namespaces/leases/kymas/leases")))
                .as("a Kyma named leases in a namespace named leases")
                .isFalse();
        assertThat(ClientRateLimiter.lease(
                        URI.create("https://api:6443/apis/coordination.k8s.io/v1/namespaces/a/leases/l/status")))
                .isFalse();
        assertThat(ClientRateLimiter.lease(null)).isFalse();

        // a bucket that stays empty (its clock stands still): the renewal goes at once, a write to the namespace waits
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        FairTokenQueue bucket = new FairTokenQueue(10, 1, clock);
        ClientRateLimiter limiter = new ClientRateLimiter(bucket, clock, d -> {});
        limiter.acquire("kyma-system");
        limiter.acquireFor(URI.create("https://api:6443/apis/coordination.k8s.io/v1/namespaces/kyma-system/leases/op"));
        assertThat(bucket.waiting()).isZero();
        Thread write = new Thread(() -> limiter.acquireFor(
                URI.create("https://api:6443/apis/inventory.kyma-project.io/v1alpha1/namespaces/kyma-system/kymas")));
        write.setDaemon(true);
        write.start();
        await().atMost(HangCatcher.STEP).until(() -> bucket.waiting() == 1);
        write.interrupt();
    }

    @Test
    void aNamespaceWithFortyRequestsWaitingDelaysAnotherNamespacesRequestByOneToken() throws Exception {
        // 10 tokens a second on a clock that moves only when told: first come first served, the quiet request would
        // leave after all the busy ones waiting
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        FairTokenQueue bucket = new FairTokenQueue(10, 1, clock);
        ClientRateLimiter limiter = new ClientRateLimiter(bucket, clock, d -> {});
        List<String> left = new CopyOnWriteArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 41; i++) {
            callers.add(caller(limiter, "busy", left));
        }
        await().atMost(HangCatcher.STEP).until(() -> bucket.waiting() == 40 && left.size() == 1);
        callers.add(caller(limiter, "quiet", left));
        await().atMost(HangCatcher.STEP).until(() -> bucket.waiting() == 41);

        clock.advance(Duration.ofMillis(200)); // two tokens: the busy line's turn, then the quiet one's
        assertThat(bucket.flowsWaiting()).as("the quiet request has its token").isEqualTo(1);
        assertThat(bucket.waiting()).isEqualTo(39);
        await().atMost(HangCatcher.STEP).until(() -> left.contains("quiet"));
        assertThat(left)
                .as("busy requests gone when the quiet one left: the burst's, and at most one that waited")
                .filteredOn("busy"::equals)
                .hasSizeLessThanOrEqualTo(2);

        callers.forEach(Thread::interrupt); // the rest wait for a clock that no longer moves: let them go
        for (Thread caller : callers) {
            caller.join(HangCatcher.STEP.toMillis());
        }
        assertThat(left).hasSize(42);
    }

    /** A caller of {@code flow} on a thread of its own, which notes the flow in {@code left} once it has its token. */
    private static Thread caller(ClientRateLimiter limiter, String flow, List<String> left) {
        Thread thread = new Thread(() -> {
            limiter.acquire(flow);
            left.add(flow);
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
