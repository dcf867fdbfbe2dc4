package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.List;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;

/**
 * The Kyma and HelmComponent controllers' settings.
 *
 * @param transitionUnit the time unit of the HelmComponent lifecycle
 * @param statusInterval least time between two Kyma status writes that only update counts
 * @param admissionBacklog as given: 0 for the default, -1 to admit every Kyma at once
 */
public record KymaSettings(Duration transitionUnit, Duration statusInterval, int admissionBacklog) {
    static final Flag<Duration> TRANSITION_UNIT = Flag.of(
            "transition-unit",
            "1s",
            "Time unit of the HelmComponent lifecycle (pending 1 unit, then N units per state, N = length of the"
                    + " module name).",
            GoDuration::parsePositive);
    static final Flag<Duration> STATUS_INTERVAL = Flag.of(
            "kyma-status-interval",
            "10s",
            "Least time between two Kyma status writes that only update component counts, and how long component"
                    + " changes that only move counts are gathered before the Kyma reconciles.",
            GoDuration::parsePositive);
    static final Flag<Integer> ADMISSION_BACKLOG = Flag.of(
            "admission-backlog",
            "0",
            "HelmComponent reconciles that may be waiting for a worker while the next Kyma in line (oldest first)"
                    + " is admitted and gets its components; `0` uses twice `--max-concurrent-reconciles`, `-1` admits"
                    + " every Kyma at once (at most 1000000).",
            Parsers.integer(-1, 1_000_000));
    static final List<Flag<?>> FLAGS = List.of(TRANSITION_UNIT, STATUS_INTERVAL, ADMISSION_BACKLOG);

    static KymaSettings from(Flags.Values values) {
        return new KymaSettings(
                values.get(TRANSITION_UNIT), values.get(STATUS_INTERVAL), values.get(ADMISSION_BACKLOG));
    }

    /**
     * How many HelmComponent reconciles may be waiting for a worker while Kymas are still admitted, or -1 when every
     * Kyma is admitted at once.
     */
    public int effectiveAdmissionBacklog(int maxConcurrentReconciles) {
        return admissionBacklog == 0 ? 2 * maxConcurrentReconciles : admissionBacklog;
    }
}
