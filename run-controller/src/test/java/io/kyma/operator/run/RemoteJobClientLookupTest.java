package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.HangCatcher;

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
    void lookUpsOfCallsThatEndedWhileWaitingForAThreadAreDropped() throws Exception {
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.parse(""), Optional.empty(), Set.of(), this::resolve);
        ManualAlarms alarms = new ManualAlarms();
        try (RemoteJobClient client = client(addresses, 8, alarms)) {
            List<CompletableFuture<RemoteJob>> slow = IntStream.range(0, 20)
                    .mapToObj(i -> client.get(JobServerUrl.parse("http://slow-" + i + ".test"), "job", 0))
                    .toList();
            await().atMost(HangCatcher.STEP).until(() -> slowLookUps() == 8); // a thread each; twelve wait for one
            alarms.goOff(); // the request timeout of every call
            for (CompletableFuture<RemoteJob> call : slow) {
                assertThatThrownBy(call::join)
                        .as("each call ends at its request timeout")
                        .hasCauseInstanceOf(RemoteJobException.class);
            }

            nameServerAnswers.countDown();
            CompletableFuture<RemoteJob> next = client.get(JobServerUrl.parse("http://fast.test"), "job", 0);
            assertThatThrownBy(() -> next.get(HangCatcher.STEP.toMinutes(), TimeUnit.MINUTES))
                    .as("ended by its look-up: its alarm never goes off")
                    .hasCauseInstanceOf(RemoteJobException.class);
            assertThat(lookedUp).containsEntry("fast.test", 1);
            assertThat(slowLookUps())
                    .as("only the look-ups that had a thread before their calls ended")
                    .isEqualTo(8);
        }
    }

    @Test
    void withAThreadPerCallInFlightNoLookUpWaitsForAnother() throws Exception {
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.parse(""), Optional.empty(), Set.of(), this::resolve);
        try (RemoteJobClient client = client(addresses, 21, new ManualAlarms())) {
            List<CompletableFuture<RemoteJob>> slow = IntStream.range(0, 20)
                    .mapToObj(i -> client.get(JobServerUrl.parse("http://slow-" + i + ".test"), "job", 0))
                    .toList();
            await().atMost(HangCatcher.STEP).until(() -> slowLookUps() == 20);
            CompletableFuture<RemoteJob> next = client.get(JobServerUrl.parse("http://fast.test"), "job", 0);
            // no alarm goes off: only its own look-up ends the call, and one queued behind a hanging look-up hangs
            assertThatThrownBy(() -> next.get(HangCatcher.STEP.toMinutes(), TimeUnit.MINUTES))
                    .as("looked up while twenty look-ups hang")
                    .hasCauseInstanceOf(RemoteJobException.class);
            assertThat(lookedUp).containsEntry("fast.test", 1);
            assertThat(slow).noneMatch(CompletableFuture::isDone);
            nameServerAnswers.countDown();
        }
    }

    private static RemoteJobClient client(ServerAddresses addresses, int lookupThreads, ManualAlarms alarms)
            throws NoSuchAlgorithmException {
        return new RemoteJobClient(
                Duration.ofSeconds(1),
                Duration.ofMinutes(10),
                1024,
                addresses,
                lookupThreads,
                SSLContext.getDefault(),
                alarms);
    }

    /** The calls' request timeouts, which go off when the test says so rather than when the time has passed. */
    private static final class ManualAlarms implements JobCalls.Timer {
        private final List<Runnable> set = new CopyOnWriteArrayList<>();

        @Override
        public Runnable later(Duration delay, Runnable alarm) {
            set.add(alarm);
            return () -> set.remove(alarm);
        }

        /** Sets off every alarm set so far. */
        void goOff() {
            List<Runnable> due = List.copyOf(set);
            set.removeAll(due);
            due.forEach(Runnable::run);
        }
    }

    private int slowLookUps() {
        return lookedUp.entrySet().stream()
                .filter(e -> e.getKey().startsWith("slow"))
                .mapToInt(Map.Entry::getValue)
                .sum();
    }
}
