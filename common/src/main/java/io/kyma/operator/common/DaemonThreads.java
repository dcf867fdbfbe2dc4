package io.kyma.operator.common;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads of the operator's own background work: named, so a thread dump says what they do, and daemons. */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** Each thread named {@code name}, for an executor of one thread. */
    public static ThreadFactory named(String name) {
        return task -> daemon(new Thread(task, name));
    }

    /** Threads named {@code prefix-1}, {@code prefix-2} and so on. */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> daemon(new Thread(task, prefix + "-" + count.incrementAndGet()));
    }

    private static Thread daemon(Thread thread) {
        thread.setDaemon(true);
        return thread;
    }
}
