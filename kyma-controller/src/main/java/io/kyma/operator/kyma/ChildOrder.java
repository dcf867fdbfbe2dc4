package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The order in which a Kyma's components are written: those whose write failed go last, the one that failed longest
 * ago first among them. A write that hangs (a webhook that never answers takes its timeout, and the client tries
 * again) spends the reconcile's time, and the thread is interrupted once that runs out, which fails every later call;
 * so each reconcile first writes the components nothing held back, and the ones that failed take turns. One that keeps
 * hanging cannot keep the others from their desired state. Kept in this process, per Kyma, while some write of it is
 * failing; lost, it costs a reconcile in the spec's order.
 */
final class ChildOrder {
    private final Map<String, List<String>> failing = new ConcurrentHashMap<>();

    /** One write of a Kyma's reconcile: to the component {@code name}. */
    record Write(String name, Runnable run) {}

    /**
     * Runs the writes of the Kyma {@code uid}, each on its own, until the reconcile's time runs out (its thread
     * interrupted): those that never failed first, then the failing ones, the longest failing first. A write that
     * succeeds is no longer failing, one that fails goes to the end, one not tried keeps its place.
     *
     * @return the first failure, the later ones suppressed in it; null if none failed
     */
    KubernetesClientException writeEach(String uid, List<Write> writes) {
        List<String> before = failing.getOrDefault(uid, List.of());
        List<String> after = new ArrayList<>(before);
        KubernetesClientException first = null;
        for (Write write : writes.stream()
                .sorted(Comparator.comparing(w -> before.indexOf(w.name())))
                .toList()) {
            if (Thread.currentThread().isInterrupted()) {
                break; // the reconcile's time ran out: every later call would fail, and none is marked for it
            }
            after.remove(write.name());
            try {
                write.run().run();
            } catch (KubernetesClientException e) {
                after.add(write.name());
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (after.isEmpty()) {
            failing.remove(uid);
        } else {
            failing.put(uid, List.copyOf(after));
        }
        return first;
    }

    void forget(String uid) {
        failing.remove(uid);
    }
}
