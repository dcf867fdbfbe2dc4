package io.kyma.operator.manager;

import java.util.ArrayList;
import java.util.List;

/**
 * The odd and hostile inputs of docs/reliability.md, one row each: what is sent, what a user sees, and the test that
 * proves it against the embedded control plane. {@link ReliabilityIT} runs every row of its own; a row that needs a
 * setting of its own (two replicas, a second namespace) names the IT method that proves it, which
 * {@link ReliabilityDocTest} checks exists. {@link ReliabilityDocTest} also keeps the document's table equal to this
 * list.
 */
final class ReliabilityCases {
    /**
     * One row.
     *
     * @param test the IT method that proves it, {@code Class#method}; for {@code ReliabilityIT#id} the method is the
     *        check {@link ReliabilityIT} runs for the row
     */
    record Case(String id, String input, String outcome, String test) {
        static final String OWN = ReliabilityIT.class.getSimpleName() + "#";

        boolean own() {
            return test.equals(OWN + id);
        }
    }

    static final List<Case> ALL = new ArrayList<>();

    private static void row(String id, String input, String outcome) {
        ALL.add(new Case(id, input, outcome, Case.OWN + id));
    }

    /** A row proven by another IT's method, {@code test} as {@code Class#method}. */
    private static void elsewhere(String test, String input, String outcome) {
        ALL.add(new Case(test.substring(test.indexOf('#') + 1), input, outcome, test));
    }

    static {
        // Kymas
        row(
                "kymaWithoutModules",
                "a Kyma with `spec.modules: []`",
                "rejected: `spec.modules` should have at least 1 item");
        row(
                "kymaWithTooManyModules",
                "a Kyma with 101 modules",
                "rejected: `spec.modules` should have at most 100 items");
        row(
                "kymaModuleNameNotALabel",
                "a module named `Istio_1`",
                "rejected: `spec.modules.name` should match the DNS-label pattern");
        row(
                "kymaModuleNameTooLong",
                "a module name of 41 characters",
                "rejected: `spec.modules.name` may have at most 40 characters");
        row(
                "kymaModuleVersionWithSlash",
                "a module version `1.0/../x`",
                "rejected: `spec.modules.version` should match the version pattern");
        row(
                "kymaNameTooLongForALabel",
                "a Kyma named with 64 characters (its name labels every component)",
                "rejected: `metadata.name` may have at most 63 characters");
        row("kymaWithoutSpec", "a Kyma without `spec`", "rejected: `spec` is required");
        row(
                "kymaDuplicateModule",
                "a Kyma listing `istio` twice",
                "rejected: `spec.modules[2]` is a duplicate value (the modules are a list keyed by name; the controller"
                        + " still refuses duplicates under an older CRD)");
        row(
                "kymaStatusCountOutOfRange",
                "a Kyma's `status.components.total` set to 3,000,000,000 by someone who may write the status (more than a Java int holds: read into one, the Kyma informer's watch would fail and the operator stop for every namespace)",
                "refused with 422 naming `status.components.total` (each count is 0 to 100), and the counts are read as longs, so a value stored before the bound still reads");
        row(
                "kymaWithManyFinalizers",
                "a Kyma with 20 finalizers of the tenant's own (anyone who may edit an object may write thousands, or thousands of owner references), then deleted",
                "the informer cache keeps a long finalizer list only as its length and the operator's own entry in its place, and only the owner references it reads; at the deletion the operator takes off its own finalizer and no other, and the Kyma goes once the tenant's are gone");
        row(
                "kymaComponentNameHeldByAnotherKyma",
                "Kyma `a-b` with module `c` next to Kyma `a` with module `b-c` (both want component `a-b-c`)",
                "the second: phase `Error`, reason `ComponentNameTaken`, message naming the component and the Kyma that holds it; its other modules are installed");
        row(
                "kymaAdoptsAnOrphanUnderItsComponentsName",
                "a HelmComponent made by hand, with no controller, under the name a Kyma's module needs",
                "adopted, as a ReplicaSet adopts a matching orphan: the Kyma sets its controller reference, spec and labels, and turns `Ready`; one another live Kyma controls is never taken (row above)");
        row("kymaNameWithDots", "a Kyma named `team.a`", "`Ready`; components named `team.a-<module>`");
        row(
                "kymaLongestNames",
                "a Kyma name of 63 characters with a module name of 40",
                "`Ready`; component names of 104 characters");
        row(
                "componentLabelRemoved",
                "the `app.kubernetes.io/managed-by` label removed from a component",
                "the label is put back, the component stays the Kyma's; the Kyma is `Processing` for the one"
                        + " reconcile that labels it back, then `Ready` again");
        row("componentDeletedByHand", "a component deleted by hand", "created again; the Kyma goes back to `Ready`");
        row(
                "componentVersionEditedByHand",
                "a component's `spec.version` edited by hand",
                "set back to the Kyma's module version");
        row(
                "kymaModuleVersionChanged",
                "a module's version changed in the Kyma",
                "`Ready` for the new generation only once every component's `status.observedGeneration` has caught up; each component then has the new version");
        row(
                "componentWithoutKyma",
                "a HelmComponent made by hand, with no Kyma",
                "walks `pending` to `success` like any other");
        row("componentWithoutModule", "a HelmComponent without `spec.module`", "rejected: `spec.module` is required");
        row(
                "componentStatusTimeAhead",
                "a component's `status.lastTransitionTime` set by hand to the year 1,000,000,000",
                "the state counts from now, the message says the time was ahead of the operator's clock, and it moves on to `success`");
        row(
                "componentStatusTimeCenturiesBack",
                "a component's `status.lastTransitionTime` set by hand to `0001-01-01T00:00:00Z` (Go's zero time)",
                "its state counts as due and it moves on to `success`; the lateness told to the metric is at most a day (two thousand years would overflow its timer and fail every reconcile)");
        row(
                "componentStatusTimeGarbage",
                "a component's `status.lastTransitionTime` set to `yesterday` by hand",
                "its state counts as due: it moves on to `success`");
        // Runs: rejected by the schema
        row("runWithoutJob", "a Run without `spec.job`", "rejected: `spec.job` is required");
        row(
                "runJobNameEmpty",
                "a Run with `spec.job.name: \"\"`",
                "rejected: `spec.job.name` should have at least 1 character");
        row(
                "runServerNotHttp",
                "`spec.server: ftp://jobs.example`",
                "rejected: `spec.server` should match the URL pattern");
        row(
                "runServerWithCredentials",
                "`spec.server: http://user:secret@127.0.0.1:9090`",
                "rejected: `spec.server` (no credentials in URLs)");
        row(
                "runServerHostWithUnderscore",
                "`spec.server: http://job_server:9090` (no valid host for Java's URL parser)",
                "rejected: `spec.server`");
        row(
                "runServerWithQuery",
                "`spec.server: http://127.0.0.1:9090/?debug=1`",
                "rejected: `spec.server` (a base URL has no query)");
        row(
                "runPollIntervalWithoutUnit",
                "`spec.pollInterval: \"5\"`",
                "rejected: `spec.pollInterval` should match the duration pattern");
        row("runTimeoutNegative", "`spec.timeout: -1s`", "rejected: `spec.timeout` should match the duration pattern");
        row(
                "runTimeoutTooLongText",
                "`spec.timeout` of 65 characters",
                "rejected: `spec.timeout` may have at most 64 characters");
        // Runs: accepted, but not possible
        row(
                "runServerPortOutOfRange",
                "`spec.server: http://127.0.0.1:99999`",
                "phase `Failed`, reason `InvalidServer`, message `spec.server: the port must be between 1 and 65535`; deleting it works");
        row(
                "runServerMalformedEscape",
                "`spec.server: http://127.0.0.1:9090/a%zz`",
                "phase `Failed`, reason `InvalidServer`, message `spec.server: not a valid URL: ...`; deleting it works");
        row(
                "runTimeoutOverflows",
                "`spec.timeout: 9999999999h` (beyond Go's 292 years)",
                "phase `Failed`, reason `InvalidSpec`, message `spec.timeout: ... longer than the longest duration ...`");
        row(
                "runPollIntervalOverflows",
                "`spec.pollInterval: 99999999999999h`",
                "phase `Failed`, reason `InvalidSpec`, message naming `spec.pollInterval`");
        row(
                "runServerNotAllowed",
                "a server outside `--remote-server-allow`",
                "phase `Failed`, reason `ServerNotAllowed`, message naming the host; no request is sent");
        row(
                "runServerMetadata",
                "`spec.server: http://169.254.169.254` (cloud metadata), with `--remote-server-allow` silent on it",
                "phase `Failed`, reason `ServerNotAllowed`; no request is sent (loopback, link-local, the operator's and the API server's addresses are refused unless an address or range in the list names them)");
        row(
                "runParamNameTooLong",
                "a job parameter name of 254 characters (the schema of a v1.20 API server cannot bound map keys)",
                "phase `Failed`, reason `InvalidSpec`, message naming `spec.job.params`; fixing the spec plans the Run again and it `Succeeded`");
        row("runTooManyParams", "a job with 65 parameters", "rejected: `spec.job.params` may have at most 64");
        row(
                "runParamValueTooLong",
                "a job parameter value of 4097 characters",
                "rejected: `spec.job.params` values may have at most 4096 characters");
        row(
                "runParamsLargeOnceEncoded",
                "40 job parameters of 4096 control characters each (JSON writes each as six bytes: about 960 KiB in the start's body)",
                "phase `Failed`, reason `InvalidSpec`, the message says how large the body would be and that a start may send 512 KiB; nothing is sent. A start's body counts in the call budget while it is out");
        row(
                "runServerEditedWhileRunning",
                "`spec.server` edited while the job runs",
                "the job is followed on the server it was started on (`status.server`) to `Succeeded`; the message says `spec.server now names ..., but the job stays on the server it was started on`; the new server gets no request");
        row("runPollIntervalZero", "`spec.pollInterval: 0s`", "polled every 100 ms (the floor), `Succeeded`");
        row("runTimeoutZero", "`spec.timeout: 0s`", "phase `Failed`, reason `Timeout`, the job cancelled");
        // Runs: the job service misbehaves
        row(
                "serviceRefusesConnections",
                "a server port with nothing behind it",
                "condition `RemoteReachable=False`, reason `Unreachable`, message `no answer from a job service: the server is unreachable, did not answer in time, or is not a job service; retrying with backoff`");
        row(
                "serviceDropsPackets",
                "a server that never completes the TCP handshake",
                "the same condition and message as a refused connection");
        row(
                "serviceHugeBody",
                "an answer of 8 MiB (limit 256 KiB)",
                "phase `Failed`, reason `AnswerTooLarge`, refused by its declared length before it is read");
        row(
                "serviceEndlessBody",
                "an answer that never ends",
                "phase `Failed`, reason `AnswerTooLarge`; the connection is closed after the limit, the operator's heap stays flat");
        row(
                "serviceSlowBody",
                "an answer sent one byte a second",
                "`Unreachable` after `--remote-request-timeout`, retrying with backoff");
        row(
                "serviceGarbage",
                "an answer that is not JSON",
                "the same condition and message as a refused connection: a server that does not speak the job API is not quoted");
        row(
                "serviceChattyLog",
                "a job whose log grows on every poll of 100 ms",
                "status written at most once per `--run-status-interval` while it runs, and at once when it ends");
        row(
                "serviceHugeErrorText",
                "a 503 with an error text of 100,000 characters",
                "condition reason `ServerError`, the service's text cut to 200 characters");
        row(
                "serviceUnknownState",
                "a job reported in state `queued`",
                "still running: phase `Running`, message `job queued`, polling goes on");
        row(
                "serviceForgetsJob",
                "the service restarts and no longer knows the job (404)",
                "phase `Failed`, reason `JobLost`");
        row(
                "serviceRefusesJob",
                "the service refuses the job (422 with a reason)",
                "phase `Failed`, reason `Rejected`, the service's reason in the message");
        row(
                "serviceRedirects",
                "a server that answers every request with a redirect to a working job service",
                "the same condition and message as a refused connection: the redirect is not followed, the job service it names gets no request");
        row(
                "serviceLoneSurrogate",
                "a job state holding half a UTF-16 surrogate pair, polled every 100 ms",
                "still running, the message shows U+FFFD as the API server would store it, and the status is not written again on each poll");
        row(
                "serviceBaseUrlWithPath",
                "`spec.server: http://host:port/api` (jobs at `/api/jobs`)",
                "`Succeeded`: the path is kept");
        // Tenants and shared workers: a second namespace, replicas or a misbehaving JOSDK
        elsewhere(
                "RunFlowIT#aServiceThatNeverAnswersHoldsNoReconcileWorker",
                "twenty Runs on a server that accepts connections and never answers, beside two reconcile workers",
                "the Runs wait for their answers without holding a worker: a Kyma created after them is `Ready` while every call still hangs, none timed out");
        elsewhere(
                "ShardingIT#shardLabelsATenantWritesAreLabelledBackOrReportedAndIgnored",
                "with two shards: a component's shard label changed by hand, then a `shard-drain` label with a value the hand-over does not define on the Kyma and on a component",
                "the component is labelled back to its Kyma's shard; the drain values stop nothing (a module added meanwhile is installed) and the Kyma's condition `ShardLabels=False`, reason `UnknownDrainValue`, names both until the labels go");
        elsewhere(
                "ShardMoverIT#aShardWithNoLeaseCountsAsDownAfterALeasesDurationAndALabelNoInformerSelectsMovesAtOnce",
                "with sharding: a shard label `01` (no informer selects it), and a shard whose replica never started",
                "the object with `01` moves to a live shard at the mover's next look; the never-started shard, with no Lease at all, counts as down once it has had none for 17 s (a leader's Lease and a 2 s margin), like a shard whose Lease ran out, and its objects move");
        elsewhere(
                "LimiterIT#aNamespaceWritingAtTheClientsQpsDelaysAnotherNamespacesWriteByAboutOneToken",
                "32 writers of one namespace keeping about 32 requests waiting for a client of 10 requests a second; then one write in another namespace",
                "the other namespace's write waits in a line of its own and leaves after at most a few of the busy namespace's requests (the test allows 7; first come first served it would leave after all of them)");
        elsewhere(
                "LimiterIT#aNamespaceFailingFasterThanTheBucketDelaysAnotherNamespacesRetryByAboutOneToken",
                "60 objects of one namespace failing on every reconcile, retried through a bucket of 5 tokens a second; then one failure in another namespace",
                "the other namespace's retry waits in a line of its own, for about one token of the failing namespace (the delay the limiter gives it is under 1 s; first come first served it would wait for the 60 tokens ahead of it, 12 s)");
        elsewhere(
                "ShardMoverIT#aDrainWrittenByHandOnAComponentWhoseKymaIsNotHandedOverIsTakenBack",
                "with sharding: `shard-drain=requested` written by hand on a component whose Kyma is not being handed over (its replica stops working on it)",
                "the mover takes the label back once it has found the component so at two looks in a row (2 s apart), and the component is reconciled again");
        elsewhere(
                "ShardMoverIT#drainsWrittenByHandOnObjectsAtHomeDoNotHoldBackAHandOver",
                "with sharding: one tenant writes `shard-drain=requested` on many of its Kymas or Runs, each on its own shard",
                "only a family off its own shard counts against the 50 hand-overs at once, so other hand-overs still start; each look takes the next step of at most 100 drained families shared fairly between namespaces (max-min), so another namespace's hand-over in progress is not held behind them; the tenant's own objects stop until their drains end without a move");
        elsewhere(
                "MissedExecutionIT#aReconcileThatFindsItsResourceMissingFromTheCacheWedgesItUnlessReleased",
                "a reconcile that finds its resource missing from the cache (JOSDK 5.2.3, issues 3416 and 3525)",
                "the resource is reconciled again (`kyma_operator_missed_executions_total` counts it); without the guard it is never reconciled again");
    }

    private ReliabilityCases() {}
}
