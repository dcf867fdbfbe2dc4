package io.kyma.operator.run;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.api.RunStatus;
import io.kyma.operator.api.Validation;
import io.kyma.operator.common.GoDuration;

/**
 * A Run's spec, checked once per reconcile: the job service to use, the job to start, how often to poll and when to
 * give up. A spec the operator cannot carry out is a {@link Invalid} with a reason and a message that names the field.
 *
 * @param jobName the job's name and {@code params} its parameters, as its start sends them (with the Run's UID as
 *     idempotency key); null and empty in the plan of a Run already started
 * @param startBodyBytes the size of the start's body, once encoded; 0 in the plan of a Run already started
 */
public record RunPlan(
        JobServerUrl server,
        Duration pollInterval,
        Optional<Duration> timeout,
        String jobName,
        Map<String, String> params,
        int startBodyBytes) {
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
        var job = run.getSpec().getJob();
        Map<String, String> params = job == null || job.getParams() == null ? Map.of() : job.getParams();
        if (params.keySet().stream().anyMatch(k -> k.length() > Validation.JOB_PARAM_NAME_MAX)) {
            throw new Invalid(
                    "InvalidSpec",
                    "spec.job.params: a parameter name is longer than " + Validation.JOB_PARAM_NAME_MAX
                            + " characters");
        }
        String name = job == null ? null : job.getName();
        int size = StartBody.encode(name, params, run.getMetadata().getUid()).length;
        if (size > StartBody.MAX_BYTES) {
            throw new Invalid(
                    "InvalidSpec",
                    "spec.job.params: " + (size >> 10) + " KiB once encoded for the job" + " service, more than the "
                            + (StartBody.MAX_BYTES >> 10) + " KiB a start may send");
        }
        return new RunPlan(
                specServer(run.getSpec(), settings),
                pollInterval(run.getSpec(), settings),
                duration(run.getSpec().getTimeout(), "spec.timeout"),
                name,
                params,
                size);
    }

    /**
     * The plan of a Run whose job was started: polls and cancels go to the server recorded at the start, whatever
     * spec.server says now (a status without one, written by an older operator, follows the spec). A status can be
     * written by hand, so the recorded server is checked like a spec's.
     */
    public static RunPlan following(Run run, RunSettings settings) throws Invalid {
        String recorded = run.getStatus() == null ? null : run.getStatus().getServer();
        if (recorded == null) {
            return of(run, settings);
        }
        return new RunPlan(
                checkedRecorded(run.getStatus(), settings),
                pollInterval(run.getSpec(), settings),
                duration(run.getSpec().getTimeout(), "spec.timeout"),
                null,
                Map.of(),
                0);
    }

    /** The server status.server records, when it can still be called. */
    public static Optional<JobServerUrl> recorded(Run run, RunSettings settings) {
        String recorded = run.getStatus() == null ? null : run.getStatus().getServer();
        try {
            return recorded == null ? Optional.empty() : Optional.of(checkedRecorded(run.getStatus(), settings));
        } catch (Invalid e) {
            return Optional.empty();
        }
    }

    /**
     * A recorded server, pinned to its recorded address, checked like a spec's: a status can be written by hand (and
     * the address is checked again before each call).
     */
    private static JobServerUrl checkedRecorded(RunStatus status, RunSettings settings) throws Invalid {
        JobServerUrl server;
        try {
            server = JobServerUrl.parse(status.getServer());
        } catch (IllegalArgumentException e) {
            throw new Invalid("InvalidServer", "status.server: " + e.getMessage());
        }
        if (status.getServerAddress() != null) {
            try {
                server = server.pinnedTo(JobServerUrl.address(status.getServerAddress()));
            } catch (IllegalArgumentException e) {
                throw new Invalid("InvalidServer", "status.serverAddress: " + e.getMessage());
            }
        }
        if (settings.defaultServer().filter(server::equals).isEmpty()) {
            allowed("status.server", server, settings);
        }
        return server;
    }

    /**
     * The server a started job is on, as {@link #following} finds it, without reading the rest of the spec: a cancel
     * must not be skipped because spec.pollInterval or spec.timeout was edited into one that cannot be used.
     */
    public static JobServerUrl startedOn(Run run, RunSettings settings) throws Invalid {
        String recorded = run.getStatus() == null ? null : run.getStatus().getServer();
        return recorded == null ? specServer(run.getSpec(), settings) : checkedRecorded(run.getStatus(), settings);
    }

    /** The server spec.server names now, when it is a usable one other than {@code startedOn}. */
    public static Optional<JobServerUrl> movedTo(Run run, RunSettings settings, JobServerUrl startedOn) {
        try {
            JobServerUrl now = specServer(run.getSpec(), settings);
            return now.equals(startedOn) ? Optional.empty() : Optional.of(now);
        } catch (Invalid e) {
            return Optional.empty();
        }
    }

    private static void allowed(String field, JobServerUrl server, RunSettings settings) throws Invalid {
        if (!settings.allowList().allows(server)) {
            throw new Invalid(
                    "ServerNotAllowed",
                    field + ": the host " + server.host() + " is not allowed by the operator's --remote-server-allow");
        }
    }

    private static Duration pollInterval(RunSpec spec, RunSettings settings) throws Invalid {
        Duration poll = duration(spec.getPollInterval(), "spec.pollInterval").orElse(settings.pollInterval());
        return poll.compareTo(MIN_POLL) < 0 ? MIN_POLL : poll;
    }

    private static JobServerUrl specServer(RunSpec spec, RunSettings settings) throws Invalid {
        JobServerUrl server;
        if (spec.getServer() == null) {
            server = settings.defaultServer()
                    .orElseThrow(() -> new Invalid(
                            "NoServer", "no job server: set spec.server or the operator's --remote-server-url"));
        } else {
            try {
                server = JobServerUrl.parse(spec.getServer());
            } catch (IllegalArgumentException e) {
                throw new Invalid("InvalidServer", "spec.server: " + e.getMessage());
            }
            allowed("spec.server", server, settings);
        }
        return server;
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
