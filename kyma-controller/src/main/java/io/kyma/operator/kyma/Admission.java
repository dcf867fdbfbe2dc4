package io.kyma.operator.kyma;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;

/**
 * Which Kymas get their components now and which wait. Each namespace has a line of its own, oldest Kyma first (by
 * creation time, then name), and a budget of its own.
 * <p>
 * The budget is the namespace's share of the HelmComponent controller's backlog: its reconciles due but waiting for a
 * worker, plus its components created but not yet seen by the informer, plus the components of its Kymas admitted a
 * moment ago whose creates are still under way. While that backlog is below the bound, the workers are not all busy
 * with the namespace's work, so its next Kyma in line is admitted; once it reaches the bound, whatever limits the
 * writes (the client's QPS, the API server's latency, its 429s, the CPU, the other namespaces' turns at the workers)
 * keeps it up and the namespace's Kymas wait. Admission therefore never idles a worker that has work, and the Kymas
 * in progress are only as many as the writes can carry, so each finishes in about its own time.
 * <p>
 * Namespaces do not share the budget, as flows in the API server's priority and fairness do not share their queues: a
 * burst of a thousand Kymas in one namespace, or ten thousand HelmComponents made there by hand, hold up that
 * namespace's line only; another namespace's Kyma is admitted at once, and the reconcile queue then serves the
 * namespaces in turn. With several namespaces busy at once, up to the bound per namespace wait for a worker.
 * <p>
 * The line is kept to the end of a burst: admitting the last Kymas together would let the writes run at their limit
 * while those Kymas walk through their timers, and finish the burst sooner, but every transition of theirs would then
 * wait behind the others and be late, and their users would wait longer for each of them.
 * <p>
 * A Kyma counts as admitted once its status has a phase other than Pending (written by an earlier admission, even by
 * another replica); components alone do not count, since anyone may create one that names a Kyma as its owner. A
 * waiting Kyma is told how many of its namespace are ahead of it once, when it starts to wait.
 */
public final class Admission {
    /** A waiting Kyma's place: {@code ahead} Kymas of its namespace are in line before it, as of {@code asOf}. */
    public record Place(int ahead, Instant asOf) {}

    private record Key(Instant created, String namespace, String name, String uid) {
        static final Comparator<Key> ORDER =
                Comparator.comparing(Key::created).thenComparing(Key::name).thenComparing(Key::uid);
    }

    private static final class Waiting {
        final Key key;
        int wanted;
        Place told;
        boolean reserved;

        Waiting(Key key, int wanted) {
            this.key = key;
            this.wanted = wanted;
        }
    }

    /** Components of an admitted Kyma whose creates are under way. */
    private record Creating(String namespace, int count) {}

    private final Clock clock;
    private final int bound;
    private volatile ToIntFunction<String> backlog = namespace -> 0;
    /** The waiting Kymas of each namespace, oldest first. */
    private final Map<String, TreeMap<Key, Waiting>> lines = new HashMap<>();

    private int waitingTotal;
    private final Map<String, Key> keys = new HashMap<>();
    private final Set<String> admitted = new HashSet<>();
    /** Admitted Kymas not yet Ready (nor failed for good). */
    private final Set<String> inProgress = new HashSet<>();
    /** By uid. */
    private final Map<String, Creating> creating = new HashMap<>();
    /** Components whose creates are under way, and room reserved for Kymas about to be admitted, by namespace. */
    private final Map<String, Integer> creatingIn = new HashMap<>();

    private final Map<String, Integer> reservedIn = new HashMap<>();

    /** @param bound the backlog below which a namespace's next Kyma is admitted; negative admits every Kyma at once */
    public Admission(Clock clock, int bound) {
        this.clock = clock;
        this.bound = bound;
    }

    /** Where each namespace's backlog of component reconciles and of components not yet seen is read from. */
    public void measureBacklog(ToIntFunction<String> backlog) {
        this.backlog = backlog;
    }

    /** Follows the Kyma informer's store: new Kymas join the line, admitted and deleted ones leave it. */
    public synchronized void changed(Kyma before, Kyma after) {
        if (after == null || after.getMetadata().getDeletionTimestamp() != null) {
            forget((after == null ? before : after).getMetadata().getUid());
            return;
        }
        String uid = after.getMetadata().getUid();
        KymaPhase phase = after.getStatus() == null ? null : after.getStatus().getPhase();
        if (phase != null && phase != KymaPhase.PENDING && !admitted.contains(uid)) {
            leaveLine(uid); // admitted elsewhere: by an earlier run or another replica
            admitted.add(uid);
        }
        if (admitted.contains(uid)) {
            if (phase == KymaPhase.READY || phase == KymaPhase.ERROR) {
                inProgress.remove(uid);
            } else {
                inProgress.add(uid);
            }
        } else if (!keys.containsKey(uid)) {
            join(after, ModulePlan.of(after).modules().size());
        }
    }

    /**
     * Asks to create the components of {@code kyma}. Admitted (now or before): empty, and {@link #createsDone} must
     * follow the creates. Otherwise the place to tell its user.
     *
     * @param wanted how many components it will create
     * @param hasComponents whether it was admitted before this process knew (it has components and its status got
     *        past Pending)
     */
    public synchronized Optional<Place> admit(Kyma kyma, int wanted, boolean hasComponents) {
        String uid = kyma.getMetadata().getUid();
        if (admitted.contains(uid)) {
            return Optional.empty();
        }
        Key key = keys.get(uid);
        TreeMap<Key, Waiting> known = key == null ? null : lines.get(key.namespace());
        Waiting waiting = known == null ? null : known.get(key);
        if (waiting == null) {
            waiting = join(kyma, wanted);
        } else if (waiting.wanted != wanted) {
            if (waiting.reserved) {
                reservedIn.merge(waiting.key.namespace(), wanted - waiting.wanted, Integer::sum);
            }
            waiting.wanted = wanted;
        }
        String namespace = waiting.key.namespace();
        // first in its line: every Kyma before it has its room reserved already
        int ahead = 0;
        boolean head = true;
        for (Waiting before : lines.get(namespace).headMap(waiting.key).values()) {
            ahead++;
            head &= before.reserved;
        }
        if (hasComponents || wanted == 0 || bound < 0 || waiting.reserved || head && room(namespace) > 0) {
            leaveLine(uid); // gives back its reserved room, if any
            admitted.add(uid);
            inProgress.add(uid);
            Creating was = creating.get(uid);
            creating.put(uid, new Creating(namespace, wanted + (was == null ? 0 : was.count())));
            creatingIn.merge(namespace, wanted, Integer::sum);
            return Optional.empty();
        }
        if (waiting.told == null) {
            waiting.told = new Place(ahead, clock.instant());
        }
        return Optional.of(waiting.told);
    }

    /** The creates of an admitted Kyma are done (or failed): they no longer count as under way. */
    public synchronized void createsDone(String uid) {
        Creating done = creating.remove(uid);
        if (done != null) {
            subtract(creatingIn, done.namespace(), done.count());
        }
    }

    /** A Kyma with nothing to create (an invalid spec, no modules): out of the line, so it holds no one up. */
    public synchronized void release(String uid) {
        forget(uid);
        admitted.add(uid);
    }

    /**
     * The Kymas to reconcile now: in each namespace, those at the head of its line that fit in the room it has left.
     * Their room is reserved, so each is returned once.
     */
    public synchronized List<ResourceID> due() {
        List<ResourceID> due = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Key, Waiting>> line : lines.entrySet()) {
            int room = room(line.getKey());
            for (Waiting waiting : line.getValue().values()) {
                if (waiting.reserved) {
                    continue;
                }
                if (room <= 0) {
                    break;
                }
                waiting.reserved = true;
                reservedIn.merge(line.getKey(), waiting.wanted, Integer::sum);
                room -= Math.max(1, waiting.wanted);
                due.add(new ResourceID(waiting.key.name(), waiting.key.namespace()));
            }
        }
        return due;
    }

    /** Whether the Kyma waits in line with no room reserved for it: a reconcile of it now would only wait again. */
    public synchronized boolean waitsInLine(String uid) {
        Key key = keys.get(uid);
        TreeMap<Key, Waiting> line = key == null ? null : lines.get(key.namespace());
        Waiting waiting = line == null ? null : line.get(key);
        return waiting != null && !waiting.reserved;
    }

    /** Admitted Kymas that are not Ready yet. */
    public synchronized int inProgress() {
        return inProgress.size();
    }

    /** Kymas waiting in line, in every namespace. */
    public synchronized int waiting() {
        return waitingTotal;
    }

    /** The namespace's backlog left before its admission stops (negative when past the bound). */
    synchronized int room(String namespace) {
        return bound < 0
                ? Integer.MAX_VALUE
                : bound
                        - backlog.applyAsInt(namespace)
                        - creatingIn.getOrDefault(namespace, 0)
                        - reservedIn.getOrDefault(namespace, 0);
    }

    private Waiting join(Kyma kyma, int wanted) {
        String uid = kyma.getMetadata().getUid();
        String created = kyma.getMetadata().getCreationTimestamp();
        Key key = new Key(
                created == null ? Instant.MAX : Instant.parse(created),
                kyma.getMetadata().getNamespace(),
                kyma.getMetadata().getName(),
                uid);
        Waiting waiting = new Waiting(key, wanted);
        lines.computeIfAbsent(key.namespace(), n -> new TreeMap<>(Key.ORDER)).put(key, waiting);
        waitingTotal++;
        keys.put(uid, key);
        return waiting;
    }

    private void forget(String uid) {
        admitted.remove(uid);
        inProgress.remove(uid);
        createsDone(uid);
        leaveLine(uid);
    }

    private void leaveLine(String uid) {
        Key key = keys.remove(uid);
        TreeMap<Key, Waiting> line = key == null ? null : lines.get(key.namespace());
        Waiting waiting = line == null ? null : line.remove(key);
        if (waiting == null) {
            return;
        }
        waitingTotal--;
        if (line.isEmpty()) {
            lines.remove(key.namespace());
        }
        if (waiting.reserved) {
            subtract(reservedIn, key.namespace(), waiting.wanted);
        }
    }

    private static void subtract(Map<String, Integer> counts, String namespace, int amount) {
        counts.computeIfPresent(namespace, (n, count) -> count - amount == 0 ? null : count - amount);
    }
}
