package io.kyma.operator.run;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.DaemonThreads;

/**
 * The Run controller's calls to job services, made off the reconcile pool. A reconcile asks for a call and returns at
 * once; the call waits for its turn (or for its time: the next poll is asked for with the answer to the last one),
 * runs without holding a thread, and its answer is kept until the Run's next reconcile takes it. An event starts that
 * reconcile as soon as the answer is in. It asks, limits and answers, and keeps nothing else of a Run: what a Run's
 * reconciles remember between them is {@link RunMemory}.
 *
 * <p>
 * Limits, so that no tenant's Runs can take what another tenant's need:
 * <ul>
 * <li>at most {@code maxInFlight} calls at once (each may hold an answer of up to the response limit, so this bounds
 * the heap that answers take: see {@link #inFlightFor});</li>
 * <li>at most {@code maxPerServer} of them to one service ({@link JobServerUrl#origin()}), so that a slow service holds
 * back its own Runs only;</li>
 * <li>one call per Run at a time;</li>
 * <li>a free slot goes to the namespace with the fewest calls out among those with a call waiting, in turn among
 * equals, so a namespace with a thousand waiting calls, or with calls that hang, delays another namespace's call by at
 * most one call per namespace with as few out.</li>
 * </ul>
 * What it keeps per Run (its call, an answer not yet taken) is dropped by {@link #forget} when the Run ends or goes,
 * or when the reconciler's memory forgets it ({@link RunMemory#IDLE}).
 */
public final class JobCalls {
    /**
     * How far into a namespace's line a turn looks for a call whose server is not at its limit: bounded, so that
     * thousands of calls waiting for one full server cost no scan of them all, under the lock, at every call that
     * ends. A call further back waits until those ahead of it move (only its own namespace's calls are ahead of it).
     */
    static final int LOOK_AHEAD = 64;
    /** Answers may hold this many copies of an answer's size at once: its bytes, its log as text, the kept tail. */
    public static final int COPIES = 3;

    public enum Kind {
        START,
        POLL,
        CANCEL
    }

    /** An answer: the value, or the failure. */
    public record Done<T>(T value, RemoteJobException failure, Instant at) {
        public boolean failed() {
            return failure != null;
        }
    }

    /** Runs a task after a delay: a timer thread in production, the test's hand in tests. */
    @FunctionalInterface
    public interface Timer {
        /** Runs {@code task} after {@code delay}; returns what cancels it. */
        Runnable later(Duration delay, Runnable task);
    }

    private final int maxInFlight;
    /** Bytes the calls in flight may hold at once, and what each call holds besides a start's body. */
    private final long budgetBytes;

    private final long perCallBytes;
    private long bytesInFlight;
    private final int maxPerServer;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Clock clock;
    private final Timer timer;
    private volatile Consumer<ResourceID> answered = id -> {};

    private final Map<String, Entry> entries = new HashMap<>();
    /** The lines of waiting calls, by namespace, in the order the namespaces are served next; none is empty. */
    private final LinkedHashMap<String, ArrayDeque<Call>> waiting = new LinkedHashMap<>();

    private final Map<String, Integer> perServer = new HashMap<>();
    /** Calls taken from their lines that are to be started, by {@link #drain}. */
    private final ArrayDeque<Call> toLaunch = new ArrayDeque<>();

    private boolean draining;
    private int inFlight;
    /** Calls out, by namespace. */
    private final Map<String, Integer> byNamespace = new HashMap<>();

    private long failedCalls;
    private long answeredCalls;

    private static final class Entry {
        final ResourceID id;
        Call call;
        /** Whether {@link #call} is only scheduled: not yet in a line, and replaceable by a call of another kind. */
        boolean scheduled;

        Runnable unschedule = () -> {};
        Kind readyKind;
        Done<Object> ready;

        Entry(ResourceID id) {
            this.id = id;
        }
    }

    /** @param bytes what the call holds while it is out: its answer, and a start's body */
    private record Call(
            String uid,
            String namespace,
            Kind kind,
            JobServerUrl server,
            Supplier<? extends CompletableFuture<?>> work,
            long bytes) {
        String origin() {
            return server.origin();
        }
    }

    /**
     * @param budgetBytes the bytes calls in flight may hold at once; one call is let out whatever it holds
     * @param perCallBytes what a call holds besides a start's body ({@link #perCall})
     * @param baseDelay how long a Run waits after its service failed once; each further failure in a row doubles it
     * @param maxDelay the longest such wait
     */
    public JobCalls(
            int maxInFlight,
            int maxPerServer,
            long budgetBytes,
            long perCallBytes,
            Duration baseDelay,
            Duration maxDelay,
            Clock clock,
            Timer timer) {
        if (maxInFlight < 1 || maxPerServer < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
        this.budgetBytes = budgetBytes;
        this.perCallBytes = perCallBytes;
        this.maxInFlight = maxInFlight;
        this.maxPerServer = maxPerServer;
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.clock = clock;
        this.timer = timer;
    }

    /** A timer on one daemon thread. */
    public static Timer timerThread() {
        ScheduledThreadPoolExecutor executor =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("job-service-calls-timer"));
        executor.setRemoveOnCancelPolicy(true);
        return (delay, task) -> {
            var scheduled = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> scheduled.cancel(false);
        };
    }

    /**
     * How long a Run waits before it calls its service again after {@code failures} failures in a row: the base delay
     * doubled failures - 1 times, at most the longest delay.
     */
    Duration backoff(int failures) {
        int doublings = Math.min(failures - 1, 30);
        Duration delay = baseDelay.multipliedBy(1L << doublings);
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }

    /**
     * What a call in flight may hold of an answer of at most {@code answerLimit} bytes: {@link #COPIES} times its body,
     * and its headers (at most {@link RemoteJobClient#MAX_HEADER_BYTES}).
     */
    public static long perCall(long answerLimit) {
        return COPIES * answerLimit + RemoteJobClient.MAX_HEADER_BYTES;
    }

    /**
     * The calls that may be in flight at once: {@code wanted}, or fewer when that many answers of {@code answerLimit}
     * bytes ({@link #perCall}) would not fit {@code budgetBytes}; at least one.
     */
    public static int inFlightFor(long budgetBytes, long answerLimit, int wanted) {
        long fits = budgetBytes / perCall(answerLimit);
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
        if (entry == null || entry.ready == null || entry.readyKind != kind) {
            return Optional.empty(); // another question's answer stays for the reconcile that asks about it
        }
        Done<Object> done = entry.ready;
        entry.ready = null;
        entry.readyKind = null;
        return Optional.of((Done<T>) done);
    }

    /**
     * Gives back an answer taken by a reconcile that could not record it (its status write failed), so that the retry
     * reads it again; nothing is given back over an answer or a call that came since.
     */
    public synchronized <T> void putBack(Run run, Kind kind, Done<T> done) {
        Entry entry = entries.get(uid(run));
        if (entry != null && entry.ready == null && !busy(run)) {
            @SuppressWarnings("unchecked")
            Done<Object> answer = (Done<Object>) done;
            entry.ready = answer;
            entry.readyKind = kind;
        }
    }

    /**
     * Asks for a call that gets in line {@code after} from now (so that the Run need not be reconciled to make it),
     * unless the Run has one waiting or in flight; returns whether this asked. A call of another kind asked for
     * meanwhile (a cancel at the deadline) takes the place of one not yet in line. {@code work} runs later, on no
     * reconcile thread, and must not block.
     *
     * @param bodyBytes the size of what the call sends (a start's body), held while it is out
     */
    public boolean ask(
            Run run,
            Kind kind,
            JobServerUrl server,
            Supplier<? extends CompletableFuture<?>> work,
            Duration after,
            long bodyBytes) {
        synchronized (this) {
            String uid = uid(run);
            Entry entry = entries.computeIfAbsent(uid, u -> new Entry(ResourceID.fromResource(run)));
            if (entry.call != null && !(entry.scheduled && entry.call.kind() != kind)) {
                return false;
            }
            if (entry.scheduled) {
                entry.unschedule.run(); // replaced
            }
            Call call = new Call(
                    uid,
                    String.valueOf(run.getMetadata().getNamespace()),
                    kind,
                    server,
                    work,
                    perCallBytes + bodyBytes);
            entry.call = call;
            entry.scheduled = after.compareTo(Duration.ZERO) > 0;
            if (entry.scheduled) {
                entry.unschedule = timer.later(after, () -> due(call));
                return true;
            }
            enqueue(call);
        }
        drain();
        return true;
    }

    /** A scheduled call's time has come: in line with it, unless it was replaced or forgotten meanwhile. */
    private void due(Call call) {
        synchronized (this) {
            Entry entry = entries.get(call.uid());
            if (entry == null || entry.call != call || !entry.scheduled) {
                return;
            }
            entry.scheduled = false;
            enqueue(call);
        }
        drain();
    }

    /** Puts a call in its namespace's line, and what may start now in the launch queue. Called holding the lock. */
    private void enqueue(Call call) {
        waiting.computeIfAbsent(call.namespace(), n -> new ArrayDeque<>()).addLast(call);
        toLaunch.addAll(next());
    }

    /**
     * Starts the calls in the launch queue, one thread at a time and in a loop, so that calls whose answers complete
     * at once (a closed client, a fake) start the next ones without a stack that grows with the line.
     */
    private void drain() {
        synchronized (this) {
            if (draining) {
                return;
            }
            draining = true;
        }
        while (true) {
            Call call;
            synchronized (this) {
                call = toLaunch.poll();
                if (call == null) {
                    draining = false;
                    return;
                }
            }
            CompletableFuture<?> answer;
            try {
                answer = call.work().get();
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(e);
            }
            Call started = call;
            answer.whenComplete((value, failure) -> finished(started, value, failure));
        }
    }

    /**
     * Drops the Run's call if it has not been sent (only scheduled, or waiting in its namespace's line), so that the
     * service never hears of it; in one step, so that the call cannot be sent meanwhile.
     *
     * @return whether the Run has no call out now: false if its call was already sent and is not answered yet
     */
    public synchronized boolean withdrawUnsent(Run run) {
        Entry entry = entries.get(uid(run));
        return entry == null || withdraw(entry);
    }

    private boolean withdraw(Entry entry) {
        if (entry.call != null && entry.scheduled) {
            entry.unschedule.run();
            entry.scheduled = false;
        } else if (entry.call != null) {
            ArrayDeque<Call> line = waiting.get(entry.call.namespace());
            if (line == null || !line.remove(entry.call)) {
                return false;
            }
            if (line.isEmpty()) {
                waiting.remove(entry.call.namespace());
            }
        }
        entry.call = null;
        return true;
    }

    /** Whether an answer of the Run's is in, not yet taken. */
    public synchronized boolean answered(Run run) {
        Entry entry = entries.get(uid(run));
        return entry != null && entry.ready != null;
    }

    /** Whether the Run has a call waiting, in flight, or scheduled. */
    public synchronized boolean busy(Run run) {
        Entry entry = entries.get(uid(run));
        return entry != null && entry.call != null;
    }

    /** Drops what is kept for the Run; a call of it still in flight ends unheard, one still waiting is not made. */
    public synchronized void forget(String uid) {
        Entry entry = entries.remove(uid);
        if (entry != null) {
            withdraw(entry);
        }
    }

    public synchronized int inFlight() {
        return inFlight;
    }

    public synchronized int waitingCalls() {
        return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    /** Calls that ended in an answer of the job API, since the start. */
    public synchronized long answeredCalls() {
        return answeredCalls;
    }

    /** Calls that ended in a failure (unreachable, an error, a bad answer), since the start. */
    public synchronized long failedCalls() {
        return failedCalls;
    }

    public synchronized int tracked() {
        return entries.size();
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    /**
     * The waiting calls that may start now, taken from their lines; called holding the lock. Each free slot goes to
     * the namespace with the fewest calls out among those with a call that may start (the first in its line, within
     * {@link #LOOK_AHEAD}, whose server is below its limit), the first in turn among equals, which then goes to the end
     * of the turn. So a namespace whose calls hold their slots long (a server that answers late or never) cannot keep
     * them from the others: while one with fewer calls out waits, it gets none.
     */
    private List<Call> next() {
        List<Call> start = new ArrayList<>();
        while (inFlight < maxInFlight) {
            Call pick = null;
            int fewest = Integer.MAX_VALUE;
            for (var line : waiting.entrySet()) {
                int out = byNamespace.getOrDefault(line.getKey(), 0);
                Call call = out < fewest ? startable(line.getValue()) : null;
                if (call != null) {
                    pick = call;
                    fewest = out;
                }
            }
            // a call the byte budget cannot take yet waits, and no later call passes it: calls out end and free
            // their bytes, so it cannot be kept waiting behind smaller ones for ever
            if (pick == null || !fits(pick)) {
                break;
            }
            ArrayDeque<Call> line = waiting.remove(pick.namespace()); // to the end of the turn, if it has calls left
            line.remove(pick);
            if (!line.isEmpty()) {
                waiting.put(pick.namespace(), line);
            }
            inFlight++;
            bytesInFlight += pick.bytes();
            perServer.merge(pick.origin(), 1, Integer::sum);
            byNamespace.merge(pick.namespace(), 1, Integer::sum);
            start.add(pick);
        }
        return start;
    }

    /** The first call of a line whose server is below its limit, looking {@link #LOOK_AHEAD} calls deep; or null. */
    private Call startable(ArrayDeque<Call> line) {
        int looked = 0;
        for (Iterator<Call> it = line.iterator(); it.hasNext() && looked++ < LOOK_AHEAD; ) {
            Call call = it.next();
            if (perServer.getOrDefault(call.origin(), 0) < maxPerServer) {
                return call;
            }
        }
        return null;
    }

    /** Whether the call's bytes fit the budget beside the calls out; the first call always does. */
    private boolean fits(Call call) {
        return inFlight == 0 || bytesInFlight + call.bytes() <= budgetBytes;
    }

    private void finished(Call call, Object value, Throwable failure) {
        Entry heard = null;
        synchronized (this) {
            inFlight--;
            bytesInFlight -= call.bytes();
            if (failure == null) {
                answeredCalls++;
            } else {
                failedCalls++;
            }
            perServer.computeIfPresent(call.origin(), (origin, n) -> n > 1 ? n - 1 : null);
            byNamespace.computeIfPresent(call.namespace(), (ns, n) -> n > 1 ? n - 1 : null);
            Entry entry = entries.get(call.uid());
            if (entry != null && entry.call == call) {
                entry.call = null;
                entry.readyKind = call.kind();
                entry.ready = failure == null
                        ? new Done<>(value, null, clock.instant())
                        : new Done<>(null, RemoteJobException.of(failure), clock.instant());
                heard = entry;
            }
            toLaunch.addAll(next());
        }
        drain();
        if (heard != null) {
            answered.accept(heard.id);
        }
    }

    static String uid(Run run) {
        String uid = run.getMetadata().getUid();
        return uid != null
                ? uid
                : run.getMetadata().getNamespace() + "/" + run.getMetadata().getName();
    }
}
