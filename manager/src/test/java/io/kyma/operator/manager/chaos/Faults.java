package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.EmbeddedControlPlane;

/**
 * One kind of fault as a scenario injects it into a run of the load with the operator in this JVM behind an
 * {@link ApiFaultProxy}: what happens when the window opens, on every tick while it lasts, and when it closes.
 * {@link #NONE} is the run without faults, with the same schedule.
 *
 * @param name how the table names it
 */
record Faults(String name, Consumer<ApiFaultProxy> begin, Consumer<ApiFaultProxy> tick, Consumer<ApiFaultProxy> end) {
    static final Faults NONE = new Faults("none", p -> {}, p -> {}, p -> {});
    static final Duration TICK = Duration.ofMillis(300);

    static Faults of(String name, Consumer<ApiFaultProxy> begin, Consumer<ApiFaultProxy> end) {
        return new Faults(name, begin, p -> {}, end);
    }

    /** The window of a scenario: when the faults begin after the load was created, and how long they last. */
    record Window(Duration begin, Duration length) {}

    /** A run of the load and the proxy that saw its requests. */
    record Result(Outcome outcome, ApiFaultProxy proxy, Trial trial) {}

    /**
     * Runs the load in namespace {@code namespace} with these faults; the operator runs with the load's flags and
     * {@code flags}. The trial's history stays readable after the run.
     */
    Result run(
            KubernetesClient admin,
            String namespace,
            ChaosLoad load,
            JobServer jobs,
            Window window,
            List<String> flags) {
        try (ApiFaultProxy proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), "operator");
                Trial trial = new Trial(admin, namespace, load)) {
            List<String> all = new ArrayList<>(load.operatorFlags(jobs.url()));
            all.addAll(flags);
            try (InProcessOperator operator = new InProcessOperator(proxy, trial.namespace(), all)) {
                trial.createLoad();
                trial.at(window.begin());
                trial.faultsBegin(operator.metrics());
                begin.accept(proxy);
                for (Duration t = TICK; t.compareTo(window.length()) < 0; t = t.plus(TICK)) {
                    trial.at(window.begin().plus(t));
                    tick.accept(proxy);
                }
                trial.at(window.begin().plus(window.length()));
                end.accept(proxy);
                trial.faultsEnd(operator.metrics());
                trial.awaitSettled();
                trial.watchBroke()
                        .ifPresent(why -> System.out.println(
                                namespace + ": the trial's own watch ended early, its history is partial: " + why));
                return new Result(trial.outcome(jobs, List.of(proxy)), proxy, trial);
            }
        }
    }
}
