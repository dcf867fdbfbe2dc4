package io.kyma.operator.manager.guard;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.MDC;

/**
 * What every line logged inside a reconcile says besides JOSDK's {@code resource.*} keys: the controller and an id of
 * this one reconcile ({@code reconcileID}, controller-runtime's name), unique across replicas and restarts by a random
 * prefix, then a count: cheaper than a random UUID on every reconcile.
 */
final class ReconcileLog {
    static final String CONTROLLER = "controller";
    static final String RECONCILE_ID = "reconcileID";
    private static final String PREFIX =
            Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    private static final AtomicLong NEXT = new AtomicLong();

    private ReconcileLog() {}

    static void open(String controller) {
        MDC.put(CONTROLLER, controller);
        MDC.put(RECONCILE_ID, PREFIX + "-" + Long.toHexString(NEXT.incrementAndGet()));
    }

    static void close() {
        MDC.remove(CONTROLLER);
        MDC.remove(RECONCILE_ID);
    }
}
