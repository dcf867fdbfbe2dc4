package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.kyma.operator.testing.ApiFaultProxy;

/**
 * Fault scenario 6, stale caches: the operator's watches deliver every event late, or lose events and then have to
 * list again (a watcher that fell behind gets "410 Gone"), while the components walk. The operator then decides on
 * views that are out of date; the result must still be right, because every status write carries the resourceVersion
 * it was computed from and the API server refuses it when that is stale.
 */
class StaleCacheIT {
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), 3);
    private static final Faults.Window WINDOW = ChaosLoad.full()
            ? new Faults.Window(Duration.ofSeconds(2), Duration.ofSeconds(8))
            : new Faults.Window(Duration.ofMillis(500), Duration.ofMillis(1500));

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    @Test
    void decisionsOnStaleViewsNeverWriteAWrongState() {
        List<Faults> kinds = List.of(
                Faults.of(
                        "every watch event 300 ms late (the lag grows while events queue)",
                        p -> p.delayWatchEvents(Duration.ofMillis(300)),
                        p -> p.delayWatchEvents(Duration.ZERO)),
                new Faults(
                        "every 300 ms each watch loses an event and ends with 410 Gone: relist",
                        p -> {},
                        ApiFaultProxy::loseNextWatchEvents,
                        p -> {}));
        if (ChaosEnvironment.coldJvm()) {
            Faults.NONE.run(ENV.admin(), "stale-warm-up", LOAD, ENV.jobs(), WINDOW, List.of());
        }
        Outcome baseline = Faults.NONE
                .run(ENV.admin(), "stale-baseline", LOAD, ENV.jobs(), WINDOW, List.of())
                .outcome();
        List<ChaosRow> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int index = 0;
        for (Faults kind : kinds) {
            Faults.Result faulted =
                    kind.run(ENV.admin(), "stale-fault-" + index++, LOAD, ENV.jobs(), WINDOW, List.of());
            Outcome outcome = faulted.outcome();
            rows.add(ChaosRow.of(kind.name(), LOAD, baseline, outcome));
            failures.addAll(outcome.violations(kind.name(), LOAD, baseline));
            System.out.printf(
                    "%s: %d watch events lost, %d watches ended%n",
                    kind.name(),
                    faulted.proxy().watchEventsLost(),
                    faulted.proxy().watchesEnded());
        }
        ChaosReport.record("stale-caches", ChaosReport.environment(), rows);
        assertThat(failures).isEmpty();
    }
}
