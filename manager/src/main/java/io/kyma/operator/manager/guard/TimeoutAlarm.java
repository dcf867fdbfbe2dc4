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
    /** Guarded by this: the watchdog's task, once scheduled. */
    private ScheduledFuture<?> alarm;
    /** Guarded by this: whether the reconcile finished, after which the alarm does nothing. */
    private boolean finished;

    private TimeoutAlarm(Thread thread, Runnable warning) {
        this.thread = thread;
        this.warning = warning;
    }

    /**
     * Sets the alarm of a reconcile that runs on the calling thread.
     *
     * @param warning says that the reconcile is being interrupted, just before it is
     */
    static TimeoutAlarm set(ScheduledExecutorService watchdog, Duration timeout, Runnable warning) {
        TimeoutAlarm alarm = new TimeoutAlarm(Thread.currentThread(), warning);
        ScheduledFuture<?> task = watchdog.schedule(alarm::goOff, timeout.toNanos(), TimeUnit.NANOSECONDS);
        synchronized (alarm) {
            alarm.alarm = task;
        }
        return alarm;
    }

    /** What the watchdog runs at the timeout: the interrupt, if the reconcile has not finished. */
    synchronized void goOff() {
        if (!finished) {
            warning.run();
            thread.interrupt();
        }
    }

    /**
     * The reconcile finished; called on its thread. The alarm is off, and an interrupt the reconcile did not consume
     * is cleared, whoever made it (the alarm, or a pool shutting down): a late alarm must not leak into the pool
     * thread's next task.
     */
    synchronized void finished() {
        finished = true;
        if (alarm != null) {
            alarm.cancel(false);
        }
        Thread.interrupted();
    }
}
