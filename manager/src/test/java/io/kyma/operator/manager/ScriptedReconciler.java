package io.kyma.operator.manager;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * A ConfigMap reconciler that does what a script says for each attempt and records when attempts started, how many
 * ran at once, and which were interrupted. The subclasses are controllers, told apart by a label.
 * <p>
 * Its two sleeps are part of the script, not waits for the cluster: {@code work} keeps each attempt busy for that long,
 * so that attempts of different resources overlap; {@link Action#HANG} stands for a reconcile stuck in a call, and
 * ends early only when the attempt is interrupted, which is recorded.
 */
abstract class ScriptedReconciler implements Reconciler<ConfigMap> {
    /** What an attempt does: succeed, fail, or hang for 5 s (unless interrupted) and then succeed. */
    enum Action {
        SUCCEED,
        FAIL,
        HANG
    }

    private final BiFunction<String, Integer, Action> script;
    private final Duration work;
    private final Map<String, List<Instant>> attempts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> interrupted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final AtomicInteger runningOverall = new AtomicInteger();
    private final AtomicInteger maxPerResource = new AtomicInteger();
    private final AtomicInteger maxOverall = new AtomicInteger();

    ScriptedReconciler(BiFunction<String, Integer, Action> script, Duration work) {
        this.script = script;
        this.work = work;
    }

    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) throws Exception {
        String name = resource.getMetadata().getName();
        List<Instant> list = attempts.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>());
        list.add(Instant.now());
        int attempt = list.size();
        AtomicInteger mine = running.computeIfAbsent(name, k -> new AtomicInteger());
        maxPerResource.accumulateAndGet(mine.incrementAndGet(), Math::max);
        maxOverall.accumulateAndGet(runningOverall.incrementAndGet(), Math::max);
        try {
            if (!work.isZero()) {
                Thread.sleep(work.toMillis());
            }
            Action action = script.apply(name, attempt);
            if (action == Action.HANG) {
                try {
                    Thread.sleep(5000);
                } catch (InterruptedException e) {
                    interrupted.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
                    throw e;
                }
            }
            if (action == Action.FAIL) {
                throw new IllegalStateException("scripted failure of " + name + " on attempt " + attempt);
            }
            return UpdateControl.noUpdate();
        } finally {
            mine.decrementAndGet();
            runningOverall.decrementAndGet();
        }
    }

    List<Instant> attempts(String name) {
        return attempts.getOrDefault(name, List.of());
    }

    /** Attempts of {@code name} that were interrupted while they hung. */
    int interrupted(String name) {
        AtomicInteger count = interrupted.get(name);
        return count == null ? 0 : count.get();
    }

    int totalAttempts() {
        return attempts.values().stream().mapToInt(List::size).sum();
    }

    int maxPerResource() {
        return maxPerResource.get();
    }

    int maxOverall() {
        return maxOverall.get();
    }

    @ControllerConfiguration(name = "scripted-a", informer = @Informer(labelSelector = "scripted=a"))
    static final class A extends ScriptedReconciler {
        A(BiFunction<String, Integer, Action> script, Duration work) {
            super(script, work);
        }
    }

    @ControllerConfiguration(name = "scripted-b", informer = @Informer(labelSelector = "scripted=b"))
    static final class B extends ScriptedReconciler {
        B(BiFunction<String, Integer, Action> script, Duration work) {
            super(script, work);
        }
    }

    /** For a manager watching every namespace: a label no other test's objects carry. */
    @ControllerConfiguration(name = "scripted-fair", informer = @Informer(labelSelector = "scripted=fair"))
    static final class Fair extends ScriptedReconciler {
        Fair(BiFunction<String, Integer, Action> script, Duration work) {
            super(script, work);
        }
    }
}
