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
import java.util.function.IntSupplier;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;

/**
 * Which Kymas get their components now and which wait: namespaces take turns, and within a namespace the oldest goes
 * first (by creation time, then name).
 * <p>
 * Turns, as in the API server's fair queuing per flow: the namespaces with Kymas waiting are served round robin, and a
 * namespace whose Kyma was just admitted goes to the back. A burst of a thousand Kymas in one namespace therefore
 * delays a Kyma of another namespace by at most one admission per namespace with Kymas waiting, not by the burst.
 * <p>
 * The budget is the HelmComponent controller's backlog: reconciles due but waiting for a worker, plus components
 * created but not yet seen by the informer, plus the components of Kymas admitted a moment ago whose creates are
 * still under way. While that backlog is below the bound, the workers are not all busy, so the next Kyma in line is
 * admitted; once it reaches the bound, whatever limits the writes (the client's QPS, the API server's latency, its
 * 429s, the CPU) keeps the backlog up and Kymas wait. Admission therefore never idles a worker that has work, and the
 * Kymas in progress are only as many as the writes can carry, so each finishes in about its own time.
 * <p>
 * The line is kept to the end of a burst: admitting the last Kymas together would let the writes run at their limit
 * while those Kymas walk through their timers, and finish the burst sooner, but every transition of theirs would then
 * wait behind the others and be late, and their users would wait longer for each of them.
 * <p>
 * A Kyma counts as admitted once its status has a phase other than Pending (written by an earlier admission, even by
 * another replica); components alone do not count, since anyone may create one that names a Kyma as its owner. A waiting Kyma is told how many are ahead of it once, when it starts to wait;
 * the line itself is the Pending Kymas of each namespace by creation time, the namespaces taking turns.
 */
public final class Admission {
    /** A waiting Kyma's place: {@code ahead} Kymas are in line before it, as of {@code asOf}. */
    public record Place(int ahead, Instant asOf) {
    }

    private record Key(Instant created, String namespace, String name, String uid) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::created).thenComparing(Key::namespace)
                .thenComparing(Key::name).thenComparing(Key::uid);
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

    private final Clock clock;
    private final int bound;
    private volatile IntSupplier backlog = () -> 0;
    /** The waiting Kymas of each namespace, oldest first. */
    private final Map<String, TreeMap<Key, Waiting>> lines = new HashMap<>();
    /** Namespaces with Kymas waiting, in the order of their turns. */
    private final java.util.ArrayDeque<String> turns = new java.util.ArrayDeque<>();
    private int waitingTotal;
    private final Map<String, Key> keys = new HashMap<>();
    private final Set<String> admitted = new HashSet<>();
    /** Admitted Kymas not yet Ready (nor failed for good). */
    private final Set<String> inProgress = new HashSet<>();
    /** Components of admitted Kymas whose creates are under way, by uid. */
    private final Map<String, Integer> creating = new HashMap<>();
    private int creatingTotal;
    private int reservedTotal;

    /** @param bound the backlog below which the next Kyma is admitted; negative admits every Kyma at once */
    public Admission(Clock clock, int bound) {
        this.clock = clock;
        this.bound = bound;
    }

    /** Where the backlog of component reconciles and of components not yet seen is read from. */
    public void measureBacklog(IntSupplier backlog) {
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
                reservedTotal += wanted - waiting.wanted;
            }
            waiting.wanted = wanted;
        }
        // first in line: every Kyma before it has its room reserved already
        List<Waiting> order = order();
        int place = order.indexOf(waiting);
        boolean head = order.subList(0, place).stream().allMatch(w -> w.reserved);
        if (hasComponents || wanted == 0 || bound < 0 || waiting.reserved || head && room() > 0) {
            leaveLine(uid); // gives back its reserved room, if any
            String namespace = waiting.key.namespace();
            if (turns.remove(namespace) && lines.containsKey(namespace)) {
                turns.addLast(namespace); // its turn is over
            }
            admitted.add(uid);
            inProgress.add(uid);
            creating.merge(uid, wanted, Integer::sum);
            creatingTotal += wanted;
            return Optional.empty();
        }
        if (waiting.told == null) {
            waiting.told = new Place(place, clock.instant());
        }
        return Optional.of(waiting.told);
    }

    /** The creates of an admitted Kyma are done (or failed): they no longer count as under way. */
    public synchronized void createsDone(String uid) {
        Integer wanted = creating.remove(uid);
        if (wanted != null) {
            creatingTotal -= wanted;
        }
    }

    /** A Kyma with nothing to create (an invalid spec, no modules): out of the line, so it holds no one up. */
    public synchronized void release(String uid) {
        forget(uid);
        admitted.add(uid);
    }

    /**
     * The Kymas to reconcile now: those at the head of the line that fit in the room left. Their room is reserved, so
     * each is returned once.
     */
    public synchronized List<ResourceID> due() {
        List<ResourceID> due = new ArrayList<>();
        int room = room();
        for (Waiting waiting : order()) {
            if (waiting.reserved) {
                continue;
            }
            if (room <= 0) {
                break;
            }
            waiting.reserved = true;
            reservedTotal += waiting.wanted;
            room -= Math.max(1, waiting.wanted);
            due.add(new ResourceID(waiting.key.name(), waiting.key.namespace()));
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

    /** Kymas waiting in line. */
    public synchronized int waiting() {
        return waitingTotal;
    }

    /**
     * The line as it will be served: the oldest waiting Kyma of each namespace in the order of their turns, then the
     * second oldest of each, and so on.
     */
    private List<Waiting> order() {
        List<Waiting> order = new ArrayList<>(waitingTotal);
        List<java.util.Iterator<Waiting>> rounds = new ArrayList<>(turns.size());
        for (String namespace : turns) {
            rounds.add(lines.get(namespace).values().iterator());
        }
        while (!rounds.isEmpty()) {
            for (var it = rounds.iterator(); it.hasNext();) {
                var namespace = it.next();
                if (namespace.hasNext()) {
                    order.add(namespace.next());
                } else {
                    it.remove();
                }
            }
        }
        return order;
    }

    /** Backlog left before admission stops (negative when past the bound). */
    synchronized int room() {
        return bound < 0 ? Integer.MAX_VALUE : bound - backlog.getAsInt() - creatingTotal - reservedTotal;
    }

    private Waiting join(Kyma kyma, int wanted) {
        String uid = kyma.getMetadata().getUid();
        String created = kyma.getMetadata().getCreationTimestamp();
        Key key = new Key(created == null ? Instant.MAX : Instant.parse(created), kyma.getMetadata().getNamespace(),
                kyma.getMetadata().getName(), uid);
        Waiting waiting = new Waiting(key, wanted);
        TreeMap<Key, Waiting> line = lines.computeIfAbsent(key.namespace(), n -> new TreeMap<>(Key.ORDER));
        if (line.isEmpty()) {
            turns.addLast(key.namespace());
        }
        line.put(key, waiting);
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
            turns.remove(key.namespace());
        }
        if (waiting.reserved) {
            reservedTotal -= waiting.wanted;
        }
    }
}
