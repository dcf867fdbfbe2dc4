package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * Name look-ups of job services run on threads of their own (as many as calls may be in flight; eight here). A tenant whose names resolve slowly holds those
 * threads only for the look-ups that began: the calls that gave up while waiting for a thread leave nothing behind in
 * the queue, so another call's look-up comes next.
 */
class RemoteJobClientLookupTest {
    private final Map<String, Integer> lookedUp = new ConcurrentHashMap<>();
    private final CountDownLatch nameServerAnswers = new CountDownLatch(1);

    private InetAddress[] resolve(String host) throws UnknownHostException {
        lookedUp.merge(host, 1, Integer::sum);
        if (host.startsWith("slow")) {
            try {
                nameServerAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        throw new UnknownHostException(host);
    }

    @Test
    void lookUpsOfCallsThatEndedWhileWaitingForAThreadAreDropped() {
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.allowAll(), Optional.empty(), Set.of(), this::resolve);
        try (RemoteJobClient client =
                new RemoteJobClient(Duration.ofSeconds(1), Duration.ofSeconds(3), 1024, addresses)) {
            List<CompletableFuture<RemoteJob>> slow = IntStream.range(0, 20)
                    .mapToObj(i -> client.get(JobServerUrl.parse("http://slow-" + i + ".test"), "job", 0))
                    .toList();
            for (CompletableFuture<RemoteJob> call : slow) {
                assertThatThrownBy(call::join)
                        .as("each call ends at its request timeout")
                        .hasCauseInstanceOf(RemoteJobException.class);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> slowLookUps() == 8);

            nameServerAnswers.countDown();
            CompletableFuture<RemoteJob> next = client.get(JobServerUrl.parse("http://fast.test"), "job", 0);
            assertThatThrownBy(next::join).hasCauseInstanceOf(RemoteJobException.class);
            assertThat(lookedUp).containsEntry("fast.test", 1);
            assertThat(slowLookUps())
                    .as("only the look-ups that had a thread before their calls ended")
                    .isEqualTo(8);
        }
    }

    @Test
    void withAThreadPerCallInFlightNoLookUpWaitsForAnother() {
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.allowAll(), Optional.empty(), Set.of(), this::resolve);
        try (RemoteJobClient client =
                new RemoteJobClient(Duration.ofSeconds(1), Duration.ofSeconds(30), 1024, addresses, 21)) {
            List<CompletableFuture<RemoteJob>> slow = IntStream.range(0, 20)
                    .mapToObj(i -> client.get(JobServerUrl.parse("http://slow-" + i + ".test"), "job", 0))
                    .toList();
            await().atMost(Duration.ofSeconds(10)).until(() -> slowLookUps() == 20);
            CompletableFuture<RemoteJob> next = client.get(JobServerUrl.parse("http://fast.test"), "job", 0);
            assertThatThrownBy(() -> next.get(10, TimeUnit.SECONDS))
                    .as("looked up while twenty look-ups hang")
                    .hasCauseInstanceOf(RemoteJobException.class);
            assertThat(slow).noneMatch(CompletableFuture::isDone);
            nameServerAnswers.countDown();
        }
    }

    private int slowLookUps() {
        return lookedUp.entrySet().stream()
                .filter(e -> e.getKey().startsWith("slow"))
                .mapToInt(Map.Entry::getValue)
                .sum();
    }
}
