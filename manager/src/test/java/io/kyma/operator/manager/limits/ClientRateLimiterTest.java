package io.kyma.operator.manager.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class ClientRateLimiterTest {

    @Test
    void theFlowIsTheNamespaceInThePath() {
        assertThat(ClientRateLimiter.flowOf(URI.create(
                "https://api:6443/apis/inventory.kyma-project.io/v1alpha1/namespaces/team-a/helmcomponents/x/status")))
                .isEqualTo("team-a");
        assertThat(ClientRateLimiter.flowOf(URI.create("https://api:6443/api/v1/namespaces/team-b"))).isEqualTo("team-b");
        assertThat(ClientRateLimiter.flowOf(URI.create(
                "https://api:6443/apis/inventory.kyma-project.io/v1alpha1/kymas?watch=true&resourceVersion=1")))
                .as("a watch across namespaces").isEmpty();
        assertThat(ClientRateLimiter.flowOf(URI.create("https://api:6443/apis/x/v1/kymas?labelSelector=namespaces/a")))
                .as("the query is not the path").isEmpty();
        assertThat(ClientRateLimiter.flowOf(null)).isEmpty();
    }

    @Test
    void aNamespaceWithTwentyRequestsWaitingDelaysAnotherNamespacesRequestByAboutOneToken() throws Exception {
        // 10 tokens a second: first come first served, the quiet request would wait about 2 s behind the busy ones
        FairTokenQueue bucket = new FairTokenQueue(10, 1, Clock.systemUTC());
        List<Duration> waits = new ArrayList<>();
        ClientRateLimiter limiter = new ClientRateLimiter(bucket, Clock.systemUTC(), d -> {
            synchronized (waits) {
                waits.add(d);
            }
        });
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            Thread thread = new Thread(() -> limiter.acquire("busy"));
            thread.start();
            busy.add(thread);
        }
        Awaitility.await().atMost(10, TimeUnit.SECONDS).until(() -> bucket.waiting() >= 15);
        long started = System.nanoTime();
        limiter.acquire("quiet");
        Duration quiet = Duration.ofNanos(System.nanoTime() - started);
        long busyLeft = bucket.waiting();
        for (Thread thread : busy) {
            thread.join(10_000);
        }
        assertThat(quiet).as("one busy token, then the quiet one's").isLessThan(Duration.ofMillis(800));
        assertThat(busyLeft).as("the busy namespace still waiting after the quiet request went").isGreaterThan(10);
        assertThat(waits).hasSize(22);
    }
}
