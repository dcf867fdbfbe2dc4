package io.kyma.operator.manager.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TimeoutAlarmTest {
    private final ScheduledThreadPoolExecutor watchdog = new ScheduledThreadPoolExecutor(1);
    private final AtomicInteger warnings = new AtomicInteger();

    @AfterEach
    void stopWatchdog() {
        watchdog.shutdownNow();
        Thread.interrupted();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES) // catches a hang: the alarm goes off at once
    void atTheTimeoutTheReconcilingThreadIsWarnedOfAndInterrupted() {
        TimeoutAlarm alarm = TimeoutAlarm.set(watchdog, Duration.ZERO, warnings::incrementAndGet);
        // a reconcile that waits for ever: only the interrupt ends it
        assertThatThrownBy(() -> new CountDownLatch(1).await()).isInstanceOf(InterruptedException.class);
        alarm.finished();
        assertThat(warnings).hasValue(1);
    }

    @Test
    void anInterruptTheReconcileDidNotConsumeIsClearedWhenItFinishes() {
        TimeoutAlarm alarm = TimeoutAlarm.set(watchdog, Duration.ofHours(1), warnings::incrementAndGet);
        alarm.goOff(); // as the watchdog would at the timeout
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        alarm.finished();
        assertThat(Thread.currentThread().isInterrupted())
                .as("the pool thread's next task starts uninterrupted")
                .isFalse();
    }

    @Test
    void anAlarmAfterTheReconcileFinishedDoesNothingAndIsCancelled() {
        watchdog.setRemoveOnCancelPolicy(true);
        TimeoutAlarm alarm = TimeoutAlarm.set(watchdog, Duration.ofHours(1), warnings::incrementAndGet);
        assertThat(watchdog.getQueue()).hasSize(1);
        alarm.finished();
        assertThat(watchdog.getQueue()).as("cancelled").isEmpty();
        alarm.goOff(); // one that was already on its way
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(warnings).hasValue(0);
    }
}
