package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.kyma.operator.testing.ApiFaultProxy;

/**
 * Fault scenario 3, a misbehaving API server: between the operator and kube-apiserver sits a proxy that answers a
 * share of the requests with 429 and Retry-After, 500, 503 or 504, delays answers, or ends every watch, for a while
 * in the middle of the load. Each kind of fault is one run, judged against one run of the same load without faults.
 */
class ApiServerFaultsIT {
    private static final ChaosLoad LOAD = ChaosLoad.standard(Duration.ofMillis(50), 3);
    private static final Faults.Window WINDOW = ChaosLoad.full()
            ? new Faults.Window(Duration.ofSeconds(2), Duration.ofSeconds(8))
            : new Faults.Window(Duration.ofMillis(500), Duration.ofMillis(1500));
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    @Test
    void everyKindOfMisbehaviourLeavesTheSameEndStateWithoutAmplifyingLoad() {
        List<Faults> kinds = List.of(
                Faults.of(
                        "429 with Retry-After: 1 to 30 % of requests",
                        p -> p.inject(new ApiFaultProxy.Fault(429, 0.3, RETRY_AFTER)), p -> p.inject(null)),
                Faults.of(
                        "500 to 20 % of requests",
                        p -> p.inject(new ApiFaultProxy.Fault(500, 0.2, null)), p -> p.inject(null)),
                Faults.of(
                        "503 to 20 % of requests",
                        p -> p.inject(new ApiFaultProxy.Fault(503, 0.2, null)), p -> p.inject(null)),
                Faults.of(
                        "504 to 20 % of requests",
                        p -> p.inject(new ApiFaultProxy.Fault(504, 0.2, null)), p -> p.inject(null)),
                Faults.of(
                        "every answer 200 ms late",
                        p -> p.delayAnswers(Duration.ofMillis(200)),
                        p -> p.delayAnswers(Duration.ZERO)),
                new Faults("every watch ended, every 300 ms", p -> {}, ApiFaultProxy::endWatches, p -> {}));
        // the first run of a JVM is slower while the JIT compiles: not a fair baseline
        if (ChaosEnvironment.coldJvm()) {
            Faults.NONE.run(ENV.admin(), "api-warm-up", LOAD, ENV.jobs(), WINDOW, List.of());
        }
        Outcome baseline = judgeable(Faults.NONE, "api-baseline").outcome();
        List<ChaosRow> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int index = 0;
        long injected = 0;
        for (Faults kind : kinds) {
            Faults.Result faulted = judgeable(kind, "api-fault-" + index++);
            rows.add(ChaosRow.of(kind.name(), LOAD, baseline, faulted.outcome()));
            check(kind.name(), baseline, faulted, failures);
            injected += faulted.outcome().injected();
        }
        // each error scenario may by chance inject none in its short window (below), but not all of them
        assertThat(injected)
                .as("errors the proxy injected in all the scenarios")
                .isPositive();
        ChaosReport.record("api-server-faults", ChaosReport.environment(), rows);
        assertThat(failures).isEmpty();
    }

    /**
     * Runs the scenario, and once more in a namespace of its own if the trial's own watch ended early (the API server
     * closed it and its last version had left the watch cache): the oracle cannot judge a partial history. These
     * scenarios' faults do not name a namespace, so a second run is the same scenario.
     */
    private static Faults.Result judgeable(Faults faults, String namespace) {
        Faults.Result result = faults.run(ENV.admin(), namespace, LOAD, ENV.jobs(), WINDOW, List.of());
        return result.trial().watchBroke().isEmpty()
                ? result
                : faults.run(ENV.admin(), namespace + "-again", LOAD, ENV.jobs(), WINDOW, List.of());
    }

    private static void check(String kind, Outcome baseline, Faults.Result faulted, List<String> failures) {
        Outcome outcome = faulted.outcome();
        failures.addAll(outcome.violations(kind, LOAD, baseline));
        // Not amplifying: each injected error costs about one more request, and nothing else grows much.
        if (outcome.requests() > baseline.requests() * 5 / 4 + 2 * outcome.injected()) {
            failures.add(kind + ": " + outcome.requests() + " requests in all with " + outcome.injected()
                    + " errors injected, " + baseline.requests() + " without faults");
        }
        if (kind.startsWith("429")) {
            Duration least = leastWaitAfterThrottling(faulted.proxy());
            System.out.println("Least wait after a 429 before the same request again: " + least.toMillis() + " ms");
            if (least.compareTo(RETRY_AFTER.minusMillis(50)) < 0) {
                failures.add(kind + ": a request was sent again " + least.toMillis() + " ms after its 429");
            }
            if (outcome.injected() > 0 && outcome.duringFault().throttled() == 0) {
                failures.add(kind + ": rest_client_requests_total{code=\"429\"} did not count the 429s");
            }
        }
        // only where errors were injected: a short window that met few requests may, by chance, have injected none
        if (kind.startsWith("5")
                && outcome.injected() > 0
                && outcome.duringFault().serverErrors() == 0) {
            failures.add(kind + ": rest_client_requests_total{code=\"5..\"} did not count the errors");
        }
    }

    /**
     * The shortest time between an injected 429 and the next attempt of the same request (same verb and object;
     * creates are left out, since every create of a kind has the same path).
     */
    private static Duration leastWaitAfterThrottling(ApiFaultProxy proxy) {
        List<ApiFaultProxy.Exchange> seen = proxy.exchanges();
        Duration least = Duration.ofDays(1);
        for (int i = 0; i < seen.size(); i++) {
            ApiFaultProxy.Exchange throttled = seen.get(i);
            if (!throttled.injected()
                    || throttled.status() != 429
                    || throttled.method().equals("POST")) {
                continue;
            }
            for (ApiFaultProxy.Exchange next : seen) {
                if (next.start().isAfter(throttled.end())
                        && next.method().equals(throttled.method())
                        && next.path().equals(throttled.path())) {
                    Duration gap = Duration.between(throttled.end(), next.start());
                    least = gap.compareTo(least) < 0 ? gap : least;
                    break;
                }
            }
        }
        return least;
    }
}
