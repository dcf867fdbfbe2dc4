package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

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

        // a bucket that is empty for a long while: the renewal goes at once, a write to the same namespace waits
        FairTokenQueue bucket = new FairTokenQueue(0.001, 1, Clock.systemUTC());
        ClientRateLimiter limiter = new ClientRateLimiter(bucket, Clock.systemUTC(), d -> {});
        limiter.acquire("kyma-system");
        limiter.acquireFor(URI.create("https://api:6443/apis/coordination.k8s.io/v1/namespaces/kyma-system/leases/op"));
        assertThat(bucket.waiting()).isZero();
        Thread write = new Thread(() -> limiter.acquireFor(
                URI.create("https://api:6443/apis/inventory.kyma-project.io/v1alpha1/namespaces/kyma-system/kymas")));
        write.setDaemon(true);
        write.start();
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> bucket.waiting() == 1);
        write.interrupt();
    }

    @Test
    void aNamespaceWithFortyRequestsWaitingDelaysAnotherNamespacesRequestByAboutOneToken() throws Exception {
        // 10 tokens a second: first come first served, the quiet request would leave after all the busy ones waiting
        FairTokenQueue bucket = new FairTokenQueue(10, 1, Clock.systemUTC());
        List<String> left = new ArrayList<>();
        ClientRateLimiter limiter = new ClientRateLimiter(bucket, Clock.systemUTC(), d -> {});
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 41; i++) {
            Thread thread = new Thread(() -> {
                limiter.acquire("busy");
                synchronized (left) {
                    left.add("busy");
                }
            });
            thread.start();
            busy.add(thread);
        }
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> bucket.waiting() >= 30);
        long waiting;
        synchronized (left) {
            waiting = 41 - left.size();
        }
        limiter.acquire("quiet");
        synchronized (left) {
            left.add("quiet");
        }
        for (Thread thread : busy) {
            thread.join(20_000);
        }
        int busyBefore = left.indexOf("quiet") - (int) (41 - waiting);
        assertThat(busyBefore)
                .as("busy requests that left after the quiet one came and before it left, of %d waiting", waiting)
                .isLessThan(10);
        assertThat(left).hasSize(42);
    }
}
