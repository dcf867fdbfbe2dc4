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
    /** Nanoseconds between two tokens, rounded up. */
    private final long interval;

    private double tokens;
    private Instant last;

    /** A caller's place in the queue of its flow. */
    public static final class Ticket {
        /** While it waits; cleared once granted or cancelled, so that a ticket kept by its caller holds no queue. */
        private Flow flow;

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
        this.interval = (long) Math.ceil(1e9 / ratePerSecond);
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
        // as grant() hands them out: the next token when the fraction accrued makes it whole, then one per interval
        return Duration.ofNanos(Math.max(1, nanosToWhole() + ahead(ticket) * interval));
    }

    /** Takes a ticket out of line: the caller no longer wants its token (a granted token stays spent). */
    public synchronized void cancel(Ticket ticket) {
        if (ticket == null || ticket.grantedAt != null || ticket.cancelled) {
            return;
        }
        ticket.cancelled = true;
        Flow flow = ticket.flow;
        ticket.flow = null;
        if (flow.waiting.peekFirst() == ticket) {
            dropCancelled(flow);
            if (flow.waiting.isEmpty()) {
                round.remove(flow);
                flows.remove(flow.name);
            }
        } // else dropped when it reaches the head of its flow
    }

    /** Whether the ticket still waits for its token. */
    public synchronized boolean waiting(Ticket ticket) {
        grant();
        return ticket.grantedAt == null && !ticket.cancelled;
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

    /**
     * Tickets served before {@code ticket} if nothing else arrives: its own flow's earlier tickets, and of every other
     * flow as many as it has, up to one per round before the ticket's round (and one more in that round for the flows
     * served before its flow in the round). Cancelled tickets not yet at the head of their flow are counted, so the
     * answer may be a little long, never short (unless the clock steps back).
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
        if (now.isBefore(last)) {
            last = now; // the wall clock stepped back: go on from now, with the tokens there were
        }
        while (!round.isEmpty()) {
            if (tokens < 1) {
                Instant next = last.plusNanos(nanosToWhole());
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
            served.flow = null;
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

    /** Nanoseconds from {@code last} until the token accruing then is whole. */
    private long nanosToWhole() {
        return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / ratePerSecond * 1e9);
    }

    private static void dropCancelled(Flow flow) {
        while (!flow.waiting.isEmpty() && flow.waiting.peekFirst().cancelled) {
            flow.waiting.pollFirst();
        }
    }
}
