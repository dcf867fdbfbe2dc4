package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Run;

/**
 * The Run controller's calls to job services, made off the reconcile pool. A reconcile asks for a call and returns at
 * once; the call waits for its turn, runs without holding a thread, and its answer is kept until the Run's next
 * reconcile takes it. An event starts that reconcile as soon as the answer is in.
 *
 * <p>
 * Limits, so that no tenant's Runs can take what another tenant's need:
 * <ul>
 * <li>at most {@code maxInFlight} calls at once (each may hold an answer of up to the response limit, so this bounds
 * the heap that answers take: see {@link #inFlightFor});</li>
 * <li>at most {@code maxPerServer} of them to one service ({@link JobServerUrl#origin()}), so that a slow service holds
 * back its own Runs only;</li>
 * <li>one call per Run at a time;</li>
 * <li>calls that wait are served one namespace at a time in turn (round robin), so a namespace with a thousand
 * waiting calls delays another namespace's call by at most one call per busy namespace.</li>
 * </ul>
 * What it keeps per Run (an answer not yet taken, when the job was last polled and the status last written) is
 * dropped by {@link #forget} when the Run ends or goes, and after an hour without a reconcile in any case.
 */
public final class JobCalls {
    /** How long a Run's entry is kept without any reconcile asking for it (a Run deleted unnoticed). */
    static final Duration IDLE = Duration.ofHours(1);
    /** Answers may hold this many copies of an answer's size at once: its bytes, its log as text, the kept tail. */
    static final int COPIES = 3;

    public enum Kind {
        START, POLL, CANCEL
    }

    /** An answer: the value, or the failure. */
    public record Done<T>(T value, RemoteJobException failure, Instant at) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final int maxInFlight;
    private final int maxPerServer;
    private final Clock clock;
    private volatile Consumer<ResourceID> answered = id -> {
    };

    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, ArrayDeque<Call>> waiting = new HashMap<>();
    /** Namespaces with waiting calls, in the order they are served next. */
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private final Map<String, Integer> perServer = new HashMap<>();
    private int inFlight;
    private long asks;

    private static final class Entry {
        final ResourceID id;
        Call call;
        Kind readyKind;
        Done<Object> ready;
        Instant lastPoll;
        Instant lastWrite;
        Instant touched;

        Entry(ResourceID id) {
            this.id = id;
        }
    }

    private record Call(String uid, String namespace, Kind kind, String origin,
            Supplier<? extends CompletableFuture<?>> work) {
    }

    public JobCalls(int maxInFlight, int maxPerServer, Clock clock) {
        if (maxInFlight < 1 || maxPerServer < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
        this.maxInFlight = maxInFlight;
        this.maxPerServer = maxPerServer;
        this.clock = clock;
    }

    /**
     * The calls that may be in flight at once: {@code wanted}, or fewer when that many answers of {@code answerLimit}
     * bytes, {@link #COPIES} times over, would not fit {@code budgetBytes}; at least one.
     */
    public static int inFlightFor(long budgetBytes, long answerLimit, int wanted) {
        long fits = budgetBytes / (COPIES * answerLimit);
        return (int) Math.max(1, Math.min(wanted, fits));
    }

    /** Who hears that an answer is in: the Run controller's event source. */
    public void onAnswer(Consumer<ResourceID> listener) {
        this.answered = listener;
    }

    /** The answer of the Run's call of this kind, if one is in; taking it clears it. */
    @SuppressWarnings("unchecked")
    public synchronized <T> Optional<Done<T>> take(Run run, Kind kind) {
        Entry entry = entries.get(uid(run));
        if (entry == null || entry.ready == null) {
            return Optional.empty();
        }
        Done<Object> done = entry.ready;
        boolean match = entry.readyKind == kind;
        entry.ready = null;
        entry.readyKind = null;
        return match ? Optional.of((Done<T>) done) : Optional.empty(); // an answer to an earlier question is dropped
    }

    /**
     * Asks for a call unless the Run has one waiting or in flight; returns whether this asked. {@code work} runs later,
     * on no reconcile thread, and must not block.
     */
    public boolean ask(Run run, Kind kind, JobServerUrl server, Supplier<? extends CompletableFuture<?>> work) {
        List<Call> launch;
        synchronized (this) {
            if (++asks % 1024 == 0) {
                sweep();
            }
            String uid = uid(run);
            Entry entry = entries.computeIfAbsent(uid, u -> new Entry(ResourceID.fromResource(run)));
            entry.touched = clock.instant();
            if (entry.call != null) {
                return false;
            }
            String namespace = String.valueOf(run.getMetadata().getNamespace());
            entry.call = new Call(uid, namespace, kind, server.origin(), work);
            ArrayDeque<Call> line = waiting.computeIfAbsent(namespace, n -> new ArrayDeque<>());
            if (line.isEmpty()) {
                turns.addLast(namespace);
            }
            line.addLast(entry.call);
            launch = next();
        }
        launch(launch);
        return true;
    }

    /** Whether the Run has a call waiting or in flight. */
    public synchronized boolean busy(Run run) {
        Entry entry = entries.get(uid(run));
        return entry != null && entry.call != null;
    }

    /** When the Run's job was last polled (or started), as far as this process knows. */
    public synchronized Optional<Instant> lastPoll(Run run) {
        Entry entry = entries.get(uid(run));
        return Optional.ofNullable(entry == null ? null : entry.lastPoll);
    }

    /** Records that the Run's job was polled (or started) now. */
    public synchronized void polled(Run run) {
        entry(run).lastPoll = clock.instant();
    }

    /** When the Run's status was last written by this process. */
    public synchronized Optional<Instant> lastWrite(Run run) {
        Entry entry = entries.get(uid(run));
        return Optional.ofNullable(entry == null ? null : entry.lastWrite);
    }

    public synchronized void wrote(Run run) {
        entry(run).lastWrite = clock.instant();
    }

    /** Drops what is kept for the Run; a call of it still in flight ends unheard, one still waiting is not made. */
    public synchronized void forget(Run run) {
        Entry entry = entries.remove(uid(run));
        if (entry != null && entry.call != null) {
            ArrayDeque<Call> line = waiting.get(entry.call.namespace());
            if (line != null && line.remove(entry.call) && line.isEmpty()) {
                waiting.remove(entry.call.namespace());
                turns.remove(entry.call.namespace());
            }
        }
    }

    public synchronized int inFlight() {
        return inFlight;
    }

    public synchronized int waitingCalls() {
        return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    public synchronized int tracked() {
        return entries.size();
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    private Entry entry(Run run) {
        Entry entry = entries.computeIfAbsent(uid(run), u -> new Entry(ResourceID.fromResource(run)));
        entry.touched = clock.instant();
        return entry;
    }

    /** The waiting calls that may start now, taken from their lines; called holding the lock. */
    private List<Call> next() {
        List<Call> start = new ArrayList<>();
        int passed = 0; // namespaces looked at in a row whose calls all go to full servers
        while (inFlight < maxInFlight && !turns.isEmpty() && passed < turns.size()) {
            String namespace = turns.pollFirst();
            ArrayDeque<Call> line = waiting.get(namespace);
            Call pick = null;
            for (Iterator<Call> it = line.iterator(); it.hasNext();) {
                Call call = it.next();
                if (perServer.getOrDefault(call.origin(), 0) < maxPerServer) {
                    it.remove();
                    pick = call;
                    break;
                }
            }
            if (line.isEmpty()) {
                waiting.remove(namespace);
            } else {
                turns.addLast(namespace);
            }
            if (pick == null) {
                passed++;
                continue;
            }
            passed = 0;
            inFlight++;
            perServer.merge(pick.origin(), 1, Integer::sum);
            start.add(pick);
        }
        return start;
    }

    private void launch(List<Call> calls) {
        for (Call call : calls) {
            CompletableFuture<?> answer;
            try {
                answer = call.work().get();
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            answer.whenComplete((value, failure) -> finished(call, value, failure));
        }
    }

    private void finished(Call call, Object value, Throwable failure) {
        List<Call> launch;
        Entry heard = null;
        synchronized (this) {
            inFlight--;
            perServer.computeIfPresent(call.origin(), (origin, n) -> n > 1 ? n - 1 : null);
            Entry entry = entries.get(call.uid());
            if (entry != null && entry.call == call) {
                Instant now = clock.instant();
                entry.call = null;
                entry.readyKind = call.kind();
                entry.ready = new Done<>(failure == null ? value : null,
                        failure == null ? null : RemoteJobException.of(failure), now);
                if (call.kind() == Kind.POLL) {
                    entry.lastPoll = now;
                }
                heard = entry;
            }
            launch = next();
        }
        launch(launch);
        if (heard != null) {
            answered.accept(heard.id);
        }
    }

    /** Drops entries no reconcile has asked about for {@link #IDLE}: their Runs went without a word. */
    private void sweep() {
        Instant before = clock.instant().minus(IDLE);
        entries.values().removeIf(e -> e.call == null && e.touched != null && e.touched.isBefore(before));
    }

    private static String uid(Run run) {
        String uid = run.getMetadata().getUid();
        return uid != null ? uid : run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
    }
}
