package io.kyma.operator.manager.guard;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The alarm of one reconcile past its timeout: set on the reconciling thread, it goes off once on the watchdog's and
 * interrupts that thread, unless the reconcile has finished by then. The reconcile still runs to its end on its own
 * thread; the interrupt only asks it to stop waiting.
 */
final class TimeoutAlarm {
    private final Thread thread;
    private final Runnable warning;
    private final ScheduledFuture<?> alarm;
    /** Guarded by this: whether the reconcile finished, after which the alarm does nothing. */
    private boolean finished;

    private TimeoutAlarm(Thread thread, Runnable warning, ScheduledExecutorService watchdog, Duration timeout) {
        this.thread = thread;
        this.warning = warning;
        this.alarm = watchdog.schedule(this::goOff, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Sets the alarm of a reconcile that runs on the calling thread.
     *
     * @param warning says that the reconcile is being interrupted, just before it is
     */
    static TimeoutAlarm set(ScheduledExecutorService watchdog, Duration timeout, Runnable warning) {
        return new TimeoutAlarm(Thread.currentThread(), warning, watchdog, timeout);
    }

    /** What the watchdog runs at the timeout: the interrupt, if the reconcile has not finished. */
    synchronized void goOff() {
        if (!finished) {
            warning.run();
            thread.interrupt();
        }
    }

    /**
     * The reconcile finished; called on its thread. The alarm is off, and an interrupt it made that the reconcile did
     * not consume is cleared: a late alarm must not leak into the pool thread's next task.
     */
    synchronized void finished() {
        finished = true;
        alarm.cancel(false);
        Thread.interrupted();
    }
}
