package io.kyma.operator.run;

import java.time.Duration;
import java.util.Optional;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.common.GoDuration;

/**
 * A Run's spec, checked once per reconcile: the job service to use, how often to poll and when to give up. A spec the
 * operator cannot carry out is a {@link Invalid} with a reason and a message that names the field.
 */
public record RunPlan(JobServerUrl server, Duration pollInterval, Optional<Duration> timeout) {
    /** Shorter poll intervals ("0s" included) are raised to this, so that no Run becomes a busy loop. */
    public static final Duration MIN_POLL = Duration.ofMillis(100);

    /** Why a Run cannot be carried out; permanent until its spec or the operator's settings change. */
    public static final class Invalid extends Exception {
        private final String reason;

        Invalid(String reason, String message) {
            super(message);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    public static RunPlan of(Run run, RunSettings settings) throws Invalid {
        RunSpec spec = run.getSpec();
        JobServerUrl server;
        if (spec.getServer() == null) {
            server = settings.defaultServer().orElseThrow(() -> new Invalid("NoServer",
                    "no job server: set spec.server or the operator's --remote-server-url"));
        } else {
            try {
                server = JobServerUrl.parse(spec.getServer());
            } catch (IllegalArgumentException e) {
                throw new Invalid("InvalidServer", "spec.server: " + e.getMessage());
            }
            if (!settings.allowList().allows(server)) {
                throw new Invalid("ServerNotAllowed", "spec.server: the host " + server.host()
                        + " is not allowed by the operator's --remote-server-allow");
            }
        }
        Duration poll = duration(spec.getPollInterval(), "spec.pollInterval").orElse(settings.pollInterval());
        return new RunPlan(server, poll.compareTo(MIN_POLL) < 0 ? MIN_POLL : poll,
                duration(spec.getTimeout(), "spec.timeout"));
    }

    private static Optional<Duration> duration(String text, String field) throws Invalid {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(GoDuration.parse(text));
        } catch (IllegalArgumentException e) {
            throw new Invalid("InvalidSpec", field + ": " + e.getMessage());
        }
    }
}
