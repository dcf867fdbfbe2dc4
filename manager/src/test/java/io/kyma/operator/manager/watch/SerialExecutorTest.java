package io.kyma.operator.manager.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class SerialExecutorTest {
    @Test
    void runsTasksOneAtATimeInOrderOnManyThreads() throws InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            SerialExecutor serial = new SerialExecutor(threads);
            List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(2000);
            for (int i = 0; i < 2000; i++) {
                int n = i;
                serial.execute(() -> {
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    order.add(n);
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(mostAtOnce.get()).isEqualTo(1);
            for (int i = 0; i < 2000; i++) {
                assertThat(order.get(i)).isEqualTo(i);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
