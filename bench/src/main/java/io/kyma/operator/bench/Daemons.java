package io.kyma.operator.bench;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The harness's own samplers: one named daemon thread each, so that a run never waits for them to end. */
final class Daemons {
    private Daemons() {}

    static ScheduledExecutorService timer(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
