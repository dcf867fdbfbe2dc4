package io.kyma.operator.manager.watch;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What the watch connections read ahead of their decoding, over all connections of one client. */
public final class ReadAheadStats {
    private final AtomicLong queuedChars = new AtomicLong();
    private final AtomicLong peakQueuedChars = new AtomicLong();
    private final LongAdder messages = new LongAdder();
    private final LongAdder stalls = new LongAdder();

    void queued(long chars) {
        long now = queuedChars.addAndGet(chars);
        peakQueuedChars.accumulateAndGet(now, Math::max);
        messages.increment();
    }

    void decoded(long chars) {
        queuedChars.addAndGet(-chars);
    }

    void stalled() {
        stalls.increment();
    }

    /** Characters of messages read from the sockets and not yet decoded. */
    public long queuedChars() {
        return queuedChars.get();
    }

    /** The most characters that were ever waiting to be decoded at once. */
    public long peakQueuedChars() {
        return peakQueuedChars.get();
    }

    /** Messages read off the sockets and handed to the decoder. */
    public long messages() {
        return messages.sum();
    }

    /** Times a connection had its whole read-ahead allowance waiting and stopped reading until the decoder caught up. */
    public long stalls() {
        return stalls.sum();
    }
}
