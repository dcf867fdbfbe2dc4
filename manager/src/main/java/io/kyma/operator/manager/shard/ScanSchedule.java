package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * When the {@link ShardRebalancer} looks for objects off their shard, a read of every Kyma and Run: at its first check,
 * then every {@code often} while the shards held change or the last look stopped early, and every {@code seldom}
 * otherwise. Objects leave their own shard when the shards held change; between such changes only a label written
 * by hand moves one.
 */
final class ScanSchedule {
    private final Clock clock;
    private final Duration often;
    private final Duration seldom;

    private Instant scanned;
    /** The shards held at the last look that read every object, or null if the last look stopped early. */
    private Set<Integer> scannedFor;

    ScanSchedule(Clock clock, Duration often, Duration seldom) {
        this.clock = clock;
        this.often = often;
        this.seldom = seldom;
    }

    /** Whether it is time to look, with {@code held} the shards whose replica runs now. */
    boolean due(Set<Integer> held) {
        Instant now = clock.instant();
        if (scanned == null) {
            return true;
        }
        boolean changed = scannedFor == null || !scannedFor.equals(held);
        return !now.isBefore(scanned.plus(changed ? often : seldom));
    }

    /** A look starts now. */
    void started() {
        scanned = clock.instant();
    }

    /** The look that started ended, with the shards held it looked for; {@code complete} if it read every object. */
    void ended(Set<Integer> held, boolean complete) {
        scannedFor = complete ? Set.copyOf(held) : null;
    }
}
