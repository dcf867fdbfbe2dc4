package io.kyma.operator.manager.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kyma.operator.testing.ApiFaultProxy;
import io.kyma.operator.testing.EmbeddedControlPlane;

/**
 * One replica of a Deployment of the operator: the processes that ran as it, one after another (a pod's container
 * restarted), all reaching the API server through one {@link ApiFaultProxy} named after the replica, which records
 * every request and can cut the replica off. A request is attributed to the incarnation (process) of the replica that
 * was the latest to start before the request reached the proxy.
 */
final class Replica implements AutoCloseable {
    private final String name;
    private final String namespace;
    private final List<String> flags;
    private final ApiFaultProxy proxy;
    private final Path kubeconfig;
    private final Path log;
    private final List<OperatorJar> incarnations = new ArrayList<>();
    /** What the ended incarnations counted, as last read from each. */
    private ReplicaMetrics.Snapshot ended = ReplicaMetrics.Snapshot.ZERO;
    /** What the current incarnation counted when last read. */
    private ReplicaMetrics.Snapshot current = ReplicaMetrics.Snapshot.ZERO;
    /** Whether the current incarnation was killed by {@link #kill()}, rather than having ended on its own. */
    private boolean killed;

    private Replica(String name, String namespace, List<String> flags) throws IOException {
        this.name = name;
        this.namespace = namespace;
        this.flags = List.copyOf(flags);
        this.proxy = ApiFaultProxy.to(EmbeddedControlPlane.get().config(), name);
        this.kubeconfig = Files.createTempFile("chaos-" + name, ".yaml");
        Files.writeString(kubeconfig, proxy.kubeconfigYaml());
        this.log = Path.of("target", "chaos", namespace + "-" + name + ".log");
        Files.createDirectories(log.getParent());
    }

    /** Starts replica {@code name} of an operator on {@code namespace} and waits until its process is live. */
    static Replica start(String name, String namespace, List<String> flags) {
        try {
            Replica replica = new Replica(name, namespace, flags);
            replica.restart();
            return replica;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String name() {
        return name;
    }

    ApiFaultProxy proxy() {
        return proxy;
    }

    /** How many processes have run as this replica. */
    int incarnations() {
        return incarnations.size();
    }

    OperatorJar process() {
        return incarnations.get(incarnations.size() - 1);
    }

    /** Starts a new process for this replica, as the kubelet restarts a container that ended. */
    void restart() {
        if (!incarnations.isEmpty()) {
            process().kill();
            ended = ended.plus(current);
            current = ReplicaMetrics.Snapshot.ZERO;
        }
        killed = false;
        incarnations.add(OperatorJar.start(kubeconfig, namespace, flags, log, "/healthz"));
    }

    /**
     * Starts a new process if the current one ended without {@link #kill()}, as the kubelet restarts a container that
     * exited: a leader that misses its renew deadline exits, which a busy machine can bring about without any fault.
     *
     * @return whether it started one
     */
    boolean restartIfEndedOnItsOwn() {
        if (killed || process().exited().isEmpty()) {
            return false;
        }
        restart();
        return true;
    }

    /** SIGKILL to the current process, after reading its metrics one last time. */
    void kill() {
        metrics();
        killed = true;
        process().kill();
    }

    /** Whether the current process says it leads. */
    boolean leading() {
        return process().exited().isEmpty() && process().leading();
    }

    /** What every process of this replica counted so far (an ended one as it was last read). */
    ReplicaMetrics.Snapshot metrics() {
        if (process().exited().isEmpty()) {
            ReplicaMetrics.Snapshot now = process().metrics();
            if (now.requests() > 0) {
                current = now;
            }
        }
        return ended.plus(current);
    }

    /**
     * Every successful write to the API server by incarnation ("replica-2#3"), left out: leases (every replica
     * competes for it), events, and the access reviews each replica POSTs at start (they change nothing).
     */
    List<Writers.Write> writes() {
        List<Writers.Write> writes = new ArrayList<>();
        for (ApiFaultProxy.Exchange e : proxy.exchanges()) {
            if (counted(e)) {
                int incarnation = 0;
                while (incarnation + 1 < incarnations.size()
                        && !incarnations.get(incarnation + 1).started().isAfter(e.start())) {
                    incarnation++;
                }
                writes.add(new Writers.Write(
                        name + "#" + (incarnation + 1), e.start(), e.end(), e.method() + " " + e.path()));
            }
        }
        return writes;
    }

    /** Whether the current process has had a write accepted, of those {@link #writes()} counts. */
    boolean wrote() {
        Instant started = process().started();
        return proxy.exchanges().stream().anyMatch(e -> counted(e) && !e.start().isBefore(started));
    }

    private static boolean counted(ApiFaultProxy.Exchange e) {
        return e.write()
                && e.succeeded()
                && !e.path().contains("/leases")
                && !e.path().contains("/events")
                && !e.path().startsWith("/apis/authorization.k8s.io/");
    }

    @Override
    public void close() {
        if (!incarnations.isEmpty()) {
            process().kill();
        }
        proxy.close();
        try {
            Files.deleteIfExists(kubeconfig);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
