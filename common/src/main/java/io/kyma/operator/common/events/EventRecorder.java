package io.kyma.operator.common.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.common.status.Conditions;

/**
 * Sends events from a few background threads, so that no reconcile waits for them or fails with them. Three bounds
 * keep them a small, stated share of what the operator writes:
 * <ul>
 *   <li>all events together at most {@link Settings#perSecond} a second (a burst of {@link Settings#burst}): the
 *       senders wait for their turn, taking the namespaces in turn; at most {@link Settings#queue} wait, and when they
 *       are full the oldest of the namespace with the most waiting is dropped ({@link TenantQueue}), so one
 *       namespace's flood cannot keep another's events out;
 *   <li>each object at most {@link Settings#perObjectBurst} events, one more each {@link Settings#perObjectRefill};
 *   <li>an event identical to one of the same object within {@link Settings#aggregateWindow} raises that Event's
 *       count instead of creating another (as {@code kubectl describe} shows: "x3 over 2m").
 * </ul>
 * Every event's fate is counted ({@link #count}). A failed write is not retried: its event is dropped, counted
 * {@link Outcome#FAILED}, and logged, at warn level the first time in a row for its namespace, then at debug level
 * until a write there succeeds.
 * <p>
 * <b>Isolation.</b> {@link Settings#senders} threads (S) send, each one event at a time, and a namespace never has two
 * events being sent: while its write hangs (an admission webhook that does not answer), its other events wait and the
 * other senders serve the other namespaces. The writer ends each call within a deadline d and does not retry it
 * ({@link KubernetesEventWriter#DEADLINE}); an event takes at most two calls (raising the count of an Event that turns
 * out to be gone, then creating one), so a hanging namespace holds one sender for at most D = 2d per event. With h
 * namespaces whose writes hang, an event of any other namespace, once it is the next of its namespace, therefore waits
 * for them not at all while h &lt; S (at least S - h senders keep serving the others, in turn) and at most ⌈h/S⌉·D
 * when h &ge; S (each D frees every sender, and a namespace goes behind the waiting ones once its call ends); either
 * way on top of its turn among the namespaces whose writes do not hang and the events' share of writes above.
 */
public final class EventRecorder implements Events, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    /** The longest message sent; the rest is cut. */
    public static final int MESSAGE_MAX = 1024;

    /** What became of an event. */
    public enum Outcome {
        CREATED,
        AGGREGATED,
        /** Dropped: its object had spent its share. */
        LIMITED,
        /** Dropped: the queue was full (the operator's share of writes for events spent) and its namespace had the most waiting. */
        QUEUE_FULL,
        /** The API server did not take it. */
        FAILED
    }

    /**
     * How the operator writes Events; {@link KubernetesEventWriter} in a cluster. Each call ends, answered or failed,
     * within a deadline of the writer's, which the isolation bound above counts on.
     */
    public interface Writer {
        /** Creates {@code event}; returns the name the API server gave it. */
        String create(Event event);

        /** Raises the count of the named Event and its last time; false when it is gone. */
        boolean aggregate(String namespace, String name, int count, String lastTimestamp);
    }

    /**
     * @param component the reporting component, as events name their source
     * @param instance this process among the operator's replicas
     */
    public record Settings(
            String component,
            String instance,
            double perSecond,
            int burst,
            int perObjectBurst,
            Duration perObjectRefill,
            Duration aggregateWindow,
            int queue,
            int objects,
            int senders) {
        /** The senders by default: three namespaces whose writes hang still leave one for all the others. */
        public static final int SENDERS = 4;

        /** The defaults, at most {@code perSecond} events a second. */
        public static Settings defaults(String component, String instance, double perSecond) {
            return new Settings(
                    component,
                    instance,
                    perSecond,
                    Math.max(1, (int) perSecond),
                    25,
                    Duration.ofMinutes(5),
                    Duration.ofMinutes(10),
                    1000,
                    10_000,
                    SENDERS);
        }
    }

    private record Pending(ObjectReference object, Type type, String reason, String message) {
        String namespace() {
            return Objects.requireNonNullElse(object.getNamespace(), "");
        }

        String objectKey() {
            return object.getUid() != null ? object.getUid() : object.getNamespace() + "/" + object.getName();
        }

        /**
         * The object, type, reason and message, the message by its hash and length: kept for thousands of objects, a
         * key must not hold a message of up to a KiB.
         */
        String eventKey() {
            int length = message == null ? 0 : message.length();
            int hash = message == null ? 0 : message.hashCode();
            return objectKey() + "\n" + type + "\n" + reason + "\n" + Integer.toHexString(hash) + "/" + length;
        }
    }

    private final Clock clock;
    private final Writer writer;
    private final Settings settings;
    private final EventLimits limits;
    private final TenantQueue<Pending> queue;
    private final Map<Outcome, AtomicLong> counts = new EnumMap<>(Outcome.class);
    private final List<Thread> senders;
    /** Namespaces whose last write failed, so that a run of failures is logged once. */
    private final Set<String> failing;

    private double tokens;
    private Instant tokensAt;

    public EventRecorder(Clock clock, Writer writer, Settings settings) {
        this.clock = clock;
        this.writer = writer;
        this.settings = settings;
        this.limits = new EventLimits(
                clock,
                settings.perObjectBurst(),
                settings.perObjectRefill(),
                settings.aggregateWindow(),
                settings.objects());
        this.queue = new TenantQueue<>(settings.queue());
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, new AtomicLong());
        }
        this.tokens = settings.burst();
        this.tokensAt = clock.instant();
        this.failing = Collections.newSetFromMap(Collections.synchronizedMap(EventLimits.lru(settings.objects())));
        ThreadFactory threads = DaemonThreads.numbered("events");
        this.senders = Stream.generate(() -> threads.newThread(this::sendAll))
                .limit(settings.senders())
                .toList();
    }

    /** Starts sending; events recorded before wait in the queue. */
    public EventRecorder start() {
        senders.forEach(Thread::start);
        return this;
    }

    @Override
    public void record(HasMetadata object, Type type, String reason, String message) {
        try {
            Pending pending = new Pending(reference(object), type, reason, cut(message));
            queue.offer(pending.namespace(), pending).ifPresent(dropped -> counted(Outcome.QUEUE_FULL));
        } catch (RuntimeException e) {
            // an object without metadata: nothing to tell about, and a reconcile must not fail for an event
            LOG.debug("cannot record event {} {}", reason, message, e);
            counted(Outcome.FAILED);
        }
    }

    /** How many events had {@code outcome} so far. */
    public long count(Outcome outcome) {
        return counts.get(outcome).get();
    }

    private void sendAll() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Pending pending = queue.take();
                try {
                    awaitTurn();
                    send(pending);
                } finally {
                    queue.done(pending.namespace());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the events' share of writes has room for one more; one sender at a time. */
    private synchronized void awaitTurn() throws InterruptedException {
        while (true) {
            Instant now = clock.instant();
            tokens = Math.min(
                    settings.burst(), tokens + Duration.between(tokensAt, now).toNanos() / 1e9 * settings.perSecond());
            tokensAt = now;
            if (tokens >= 1) {
                tokens -= 1;
                return;
            }
            TimeUnit.NANOSECONDS.sleep((long) ((1 - tokens) / settings.perSecond() * 1e9) + 1);
        }
    }

    /** Sends the next queued event, if any, without waiting for its turn: for tests. */
    boolean sendNext() {
        var pending = queue.poll();
        pending.ifPresent(this::send);
        pending.ifPresent(p -> queue.done(p.namespace()));
        return pending.isPresent();
    }

    /** Sends one event as its limits decide; never throws. */
    private void send(Pending pending) {
        try {
            EventLimits.Decision decision = limits.decide(pending.objectKey(), pending.eventKey());
            switch (decision.verdict()) {
                case LIMITED -> counted(Outcome.LIMITED);
                case AGGREGATE -> {
                    EventLimits.Sent previous = decision.previous();
                    int count = previous.count() + 1;
                    if (writer.aggregate(pending.object().getNamespace(), previous.name(), count, now())) {
                        limits.sent(pending.eventKey(), previous.name(), count, previous.first());
                        counted(Outcome.AGGREGATED);
                    } else {
                        limits.forget(pending.eventKey());
                        create(pending);
                    }
                }
                case CREATE -> create(pending);
            }
            failing.remove(pending.namespace());
        } catch (RuntimeException e) {
            if (failing.add(pending.namespace())) {
                LOG.warn(
                        "event {} of {}/{} not sent, and the namespace's next ones until one is: {}",
                        pending.reason(),
                        pending.object().getNamespace(),
                        pending.object().getName(),
                        e.toString());
            }
            LOG.debug(
                    "event {} of {}/{} not sent",
                    pending.reason(),
                    pending.object().getNamespace(),
                    pending.object().getName(),
                    e);
            counted(Outcome.FAILED);
        }
    }

    private void create(Pending pending) {
        String now = now();
        Event event = new EventBuilder()
                .withNewMetadata()
                .withGenerateName(pending.object().getName() + ".")
                .withNamespace(pending.object().getNamespace())
                .endMetadata()
                .withInvolvedObject(pending.object())
                .withType(pending.type().text())
                .withReason(pending.reason())
                .withMessage(pending.message())
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent(settings.component())
                .withHost(settings.instance())
                .endSource()
                .withReportingComponent(settings.component())
                .withReportingInstance(settings.instance())
                .build();
        String name = writer.create(event);
        limits.sent(pending.eventKey(), name, 1, clock.instant());
        counted(Outcome.CREATED);
    }

    private String now() {
        return Conditions.timestamp(clock.instant());
    }

    private void counted(Outcome outcome) {
        counts.get(outcome).incrementAndGet();
    }

    private static ObjectReference reference(HasMetadata object) {
        return new ObjectReferenceBuilder()
                .withApiVersion(object.getApiVersion())
                .withKind(object.getKind())
                .withNamespace(object.getMetadata().getNamespace())
                .withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid())
                .withResourceVersion(object.getMetadata().getResourceVersion())
                .build();
    }

    private static String cut(String message) {
        return message == null || message.length() <= MESSAGE_MAX
                ? message
                : message.substring(0, MESSAGE_MAX - 1) + "…";
    }

    @Override
    public void close() {
        senders.forEach(Thread::interrupt);
        try {
            for (Thread sender : senders) {
                sender.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
