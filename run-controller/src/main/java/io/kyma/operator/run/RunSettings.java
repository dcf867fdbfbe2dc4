package io.kyma.operator.run;

import java.time.Duration;
import java.util.Optional;

/**
 * The operator-wide settings of the Run controller.
 *
 * @param defaultServer the job service for Runs without spec.server; always allowed
 * @param pollInterval how often to poll a running job unless spec.pollInterval says otherwise
 * @param cleanupTimeout how long deletion keeps trying to cancel a job on an unreachable server
 * @param allowList where spec.server may point
 * @param statusInterval the least time between two status writes of a running Run that only report what its job says
 *        (state text, log); a phase or condition change is written at once
 */
public record RunSettings(
        Optional<JobServerUrl> defaultServer,
        Duration pollInterval,
        Duration cleanupTimeout,
        ServerAllowList allowList,
        Duration statusInterval) {}
