package io.kyma.operator.manager.limits;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * A token bucket whose waiting callers are queued per flow (a namespace) and served in turn, one token per flow per
 * round, as the API server's fair queuing serves its flows. Tokens accrue at {@code ratePerSecond} up to
 * {@code burst}; while any caller waits, each token goes to the head of the next flow in the round, so a flow with a
 * thousand callers waiting delays another flow's caller by at most one token per flow waiting, not by the thousand.
 * With one flow it is the plain bucket: the same rate, the same burst, first come first served.
 * <p>
 * Tokens are handed out lazily: each call first grants the tokens accrued since the last call, at the instants they
 * accrued. A caller {@linkplain #enqueue enqueues} a ticket and asks {@link #waitFor} how long it still has to wait;
 * until the ticket is granted the answer is the wait if no other caller arrived, so callers of flows that arrive
 * later may be asked to wait again.
 */
public final class FairTokenQueue {
    private final double ratePerSecond;
    private final int burst;
    private final Clock clock;
    private final Map<String, Flow> flows = new HashMap<>();
    /** The flows with tickets waiting, the next to be served first. */
    private final ArrayDeque<Flow> round = new ArrayDeque<>();
    private double tokens;
    private Instant last;
    /** Cancelled tickets not yet dropped from their flow. */
    private int cancelled;

    /** A caller's place in the queue of its flow. */
    public static final class Ticket {
        private final Flow flow;
        private final long seq;
        private Instant grantedAt;
        private boolean cancelled;

        private Ticket(Flow flow, long seq) {
            this.flow = flow;
            this.seq = seq;
        }
    }

    private static final class Flow {
        private final String name;
        private final ArrayDeque<Ticket> waiting = new ArrayDeque<>();
        private long enqueued;

        private Flow(String name) {
            this.name = name;
        }

        /** Tickets of this flow served before {@code seq} in a round-robin where nothing else arrives. */
        private long aheadOf(long seq) {
            return seq - waiting.peekFirst().seq;
        }
    }

    public FairTokenQueue(double ratePerSecond, int burst, Clock clock) {
        if (ratePerSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("a token bucket needs a positive rate and a burst of at least 1");
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.clock = clock;
        this.tokens = burst;
        this.last = clock.instant();
    }

    /** Puts a caller of {@code flow} in line; a token available now is granted at once. */
    public synchronized Ticket enqueue(String flow) {
        grant();
        Flow f = flows.computeIfAbsent(flow == null ? "" : flow, Flow::new);
        if (f.waiting.isEmpty()) {
            round.addLast(f);
        }
        Ticket ticket = new Ticket(f, f.enqueued++);
        f.waiting.addLast(ticket);
        grant();
        return ticket;
    }

    /**
     * How long the caller of {@code ticket} must still wait: zero once its token is granted (a token is granted at
     * or before now), else the wait if no other caller arrives.
     */
    public synchronized Duration waitFor(Ticket ticket) {
        grant();
        if (ticket.grantedAt != null || ticket.cancelled) {
            return Duration.ZERO;
        }
        long ahead = ahead(ticket);
        double seconds = (ahead + 1 - tokens) / ratePerSecond;
        return Duration.ofNanos(Math.max(1, (long) Math.ceil(seconds * 1e9)));
    }

    /** Takes a ticket out of line: the caller no longer wants its token (a granted token stays spent). */
    public synchronized void cancel(Ticket ticket) {
        if (ticket != null && ticket.grantedAt == null) {
            if (!ticket.cancelled) {
                ticket.cancelled = true;
                cancelled++;
            }
            grant(); // drops it if it is at the head of its flow
        }
    }

    /** The instant the ticket's token was granted, if it was. */
    public synchronized Instant grantedAt(Ticket ticket) {
        grant();
        return ticket.grantedAt;
    }

    /** Callers waiting for a token, in all flows. */
    public synchronized long waiting() {
        grant();
        long waiting = 0;
        for (Flow f : round) {
            waiting += f.enqueued - f.waiting.peekFirst().seq;
        }
        return waiting;
    }

    /** Flows with callers waiting. */
    public synchronized int flowsWaiting() {
        grant();
        return round.size();
    }

    public double ratePerSecond() {
        return ratePerSecond;
    }

    public int burst() {
        return burst;
    }

    /**
     * Tickets served before {@code ticket} if nothing else arrives: its own flow's earlier tickets, and of every other
     * flow as many as it has, up to one per round before the ticket's round (and one more in that round for the flows
     * served before its flow in the round). Cancelled tickets not yet at the head of their flow are counted, so the
     * answer may be a little long, never short.
     */
    private long ahead(Ticket ticket) {
        Flow own = ticket.flow;
        long rounds = own.aheadOf(ticket.seq);
        long ahead = rounds;
        boolean beforeOwn = true;
        for (Flow f : round) {
            if (f == own) {
                beforeOwn = false;
                continue;
            }
            long waiting = f.enqueued - f.waiting.peekFirst().seq;
            ahead += Math.min(waiting, beforeOwn ? rounds + 1 : rounds);
        }
        return ahead;
    }

    /** Grants the tokens accrued since the last call to the flows in turn, each at the instant it accrued. */
    private void grant() {
        Instant now = clock.instant();
        dropCancelledHeads();
        while (!round.isEmpty()) {
            if (tokens < 1) {
                long nanos = (long) Math.ceil((1 - tokens) / ratePerSecond * 1e9);
                Instant next = last.plusNanos(nanos);
                if (next.isAfter(now)) {
                    break;
                }
                tokens = 1;
                last = next;
            }
            tokens -= 1;
            Flow flow = round.pollFirst();
            Ticket served = flow.waiting.pollFirst();
            served.grantedAt = last;
            dropCancelled(flow);
            if (!flow.waiting.isEmpty()) {
                round.addLast(flow);
            } else {
                flows.remove(flow.name);
            }
        }
        if (now.isAfter(last)) {
            double elapsed = Duration.between(last, now).toNanos() / 1e9;
            tokens = Math.min(round.isEmpty() ? burst : 1, tokens + elapsed * ratePerSecond);
            last = now;
        }
    }

    private void dropCancelledHeads() {
        if (cancelled == 0) {
            return;
        }
        for (int i = round.size(); i > 0; i--) {
            Flow flow = round.pollFirst();
            dropCancelled(flow);
            if (flow.waiting.isEmpty()) {
                flows.remove(flow.name);
            } else {
                round.addLast(flow);
            }
        }
    }

    private void dropCancelled(Flow flow) {
        while (!flow.waiting.isEmpty() && flow.waiting.peekFirst().cancelled) {
            flow.waiting.pollFirst();
            cancelled--;
        }
    }
}
