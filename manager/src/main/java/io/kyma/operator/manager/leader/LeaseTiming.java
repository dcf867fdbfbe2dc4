package io.kyma.operator.manager.leader;

import java.time.Duration;

/**
 * How the leader Lease is held: taken over once not renewed for {@code duration}; a leader that has not renewed it for
 * {@code renewDeadline} stops; renewals are tried every {@code retryPeriod}.
 */
public record LeaseTiming(Duration duration, Duration renewDeadline, Duration retryPeriod) {}
