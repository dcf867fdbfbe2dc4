package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.sun.net.httpserver.HttpServer;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.remotejob.Faults;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.run.RemoteJobClient;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * Every row of docs/reliability.md against the embedded control plane and one operator: what the API server rejects,
 * and for what it accepts, the status the operator writes. Each row is one method named by its id.
 */
class ReliabilityIT {
    private static final String NS = "reliability";

    private static KubernetesClient admin;
    private static RunningManager manager;
    private static JobServer healthy;
    private static final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        Namespaces.apply(admin, NS);
        healthy = server(f -> f);
        manager = new RunningManager(
                NS,
                "--transition-unit",
                "10ms",
                "--remote-server-url",
                healthy.url(),
                "--remote-connect-timeout",
                "1s",
                "--remote-request-timeout",
                "2s",
                "--failure-max-delay",
                "5s",
                "--remote-server-allow",
                "127.0.0.1, localhost");
    }

    @AfterAll
    static void stop() throws Exception {
        manager.close();
        for (AutoCloseable c : closing) {
            c.close();
        }
        admin.close();
    }

    static Stream<Arguments> rows() {
        return ReliabilityCases.ALL.stream()
                .filter(ReliabilityCases.Case::own)
                .map(c -> Arguments.of(c.id(), c.input()));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("rows")
    void row(String id, String input) throws Throwable {
        Method check = ReliabilityIT.class.getDeclaredMethod(id);
        try {
            check.invoke(this);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    // ---- Kymas ------------------------------------------------------------------------------------------------

    void kymaWithoutModules() {
        rejected(kyma("no-modules"), "spec.modules", "at least 1");
    }

    void kymaWithTooManyModules() {
        rejected(
                kyma(
                        "many-modules",
                        IntStream.range(0, 101).mapToObj(i -> "m" + i).toArray(String[]::new)),
                "spec.modules",
                "at most 100");
    }

    void kymaModuleNameNotALabel() {
        rejected(kyma("bad-module", "Istio_1"), "spec.modules", "name", "should match");
    }

    void kymaModuleNameTooLong() {
        rejected(kyma("long-module", "m".repeat(41)), "spec.modules", "name", "40");
    }

    void kymaModuleVersionWithSlash() {
        Kyma kyma = kyma("bad-version", "istio");
        kyma.getSpec().getModules().get(0).setVersion("1.0/../x");
        rejected(kyma, "spec.modules", "version", "should match");
    }

    void kymaNameTooLongForALabel() {
        rejected(kyma("k".repeat(64), "istio"), "metadata.name", "63");
    }

    void kymaWithoutSpec() {
        Kyma kyma = kyma("no-spec");
        kyma.setSpec(null);
        rejected(kyma, "spec", "Required");
    }

    void kymaDuplicateModule() {
        rejected(kyma("dup", "istio", "ory", "istio"), "spec.modules[2]", "Duplicate value");
    }

    void kymaStatusCountOutOfRange() {
        create(kyma("counted", "istio"));
        awaitKyma("counted", k -> phase(k, KymaPhase.READY));
        assertThatThrownBy(() -> admin.resources(Kyma.class)
                        .inNamespace(NS)
                        .withName("counted")
                        .editStatus(k -> {
                            k.getStatus().getComponents().setTotal(3_000_000_000L);
                            return k;
                        }))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("status.components.total");
                });
        awaitKyma("counted", k -> phase(k, KymaPhase.READY));
    }

    void kymaWithManyFinalizers() {
        Kyma kyma = kyma("finalized", "istio");
        List<String> foreign =
                IntStream.range(0, 20).mapToObj(i -> "tenant.example/f-" + i).toList();
        kyma.getMetadata().setFinalizers(foreign);
        create(kyma);
        String own = "kymas.inventory.kyma-project.io/finalizer";
        awaitKyma(
                "finalized",
                k -> phase(k, KymaPhase.READY)
                        && k.getMetadata().getFinalizers().contains(own));
        admin.resources(Kyma.class).inNamespace(NS).withName("finalized").edit(k -> {
            k.getMetadata().getFinalizers().add("tenant.example/after"); // one after the operator's too
            return k;
        });
        List<String> others = new ArrayList<>(foreign);
        others.add("tenant.example/after");
        admin.resources(Kyma.class).inNamespace(NS).withName("finalized").delete();
        // the cache keeps such a list as its length and the operator's entry: its JSON patch must take off that one
        await().atMost(HangCatcher.STEP)
                .until(() -> !get(Kyma.class, "finalized")
                        .getMetadata()
                        .getFinalizers()
                        .contains(own));
        assertThat(get(Kyma.class, "finalized").getMetadata().getFinalizers()).containsExactlyElementsOf(others);
        admin.resources(Kyma.class).inNamespace(NS).withName("finalized").edit(k -> {
            k.getMetadata().setFinalizers(List.of());
            return k;
        });
        await().atMost(HangCatcher.STEP).until(() -> get(Kyma.class, "finalized") == null);
    }

    void kymaComponentNameHeldByAnotherKyma() {
        create(kyma("a", "b-c"));
        awaitKyma("a", k -> phase(k, KymaPhase.READY));
        create(kyma("a-b", "c", "ory"));
        Kyma second = awaitKyma("a-b", k -> phase(k, KymaPhase.ERROR));
        assertThat(ready(second).getReason()).isEqualTo("ComponentNameTaken");
        assertThat(ready(second).getMessage()).contains("HelmComponent a-b-c belongs to Kyma a");
        awaitComponent("a-b-ory", c -> c.getStatus() != null && c.getStatus().getState() == ComponentState.SUCCESS);
        assertThat(admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withName("a-b-c")
                        .get()
                        .getSpec()
                        .getKyma())
                .as("the holder's component is left alone")
                .isEqualTo("a");
    }

    void kymaAdoptsAnOrphanUnderItsComponentsName() {
        create(component("held-istio", "istio"));
        create(kyma("held", "istio"));
        Kyma kyma = awaitKyma("held", k -> phase(k, KymaPhase.READY));
        HelmComponent adopted = admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("held-istio")
                .get();
        assertThat(adopted.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(kyma.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        assertThat(adopted.getSpec().getKyma()).isEqualTo("held");
    }

    void kymaNameWithDots() {
        create(kyma("team.a", "ory"));
        awaitKyma("team.a", k -> phase(k, KymaPhase.READY));
        assertThat(admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withName("team.a-ory")
                        .get())
                .isNotNull();
    }

    void kymaLongestNames() {
        String name = "l".repeat(63);
        String module = "m".repeat(40);
        create(kyma(name, module));
        awaitKyma(name, k -> phase(k, KymaPhase.READY));
        assertThat(admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withName(name + "-" + module)
                        .get()
                        .getMetadata()
                        .getName())
                .hasSize(104);
    }

    void componentLabelRemoved() {
        create(kyma("relabel", "ory"));
        awaitKyma("relabel", k -> phase(k, KymaPhase.READY));
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("relabel-ory")
                .edit(c -> {
                    c.getMetadata().getLabels().remove(Labels.MANAGED_BY);
                    return c;
                });
        HelmComponent back = awaitComponent(
                "relabel-ory",
                c -> Labels.MANAGED_BY_VALUE.equals(c.getMetadata().getLabels().get(Labels.MANAGED_BY)));
        assertThat(back.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getName()).isEqualTo("relabel"));
        // the reconcile that labels it back counts it as not the Kyma's yet: a moment of Processing, then Ready
        awaitKyma("relabel", k -> phase(k, KymaPhase.READY));
    }

    void componentDeletedByHand() {
        create(kyma("regrow", "ory", "kiali"));
        awaitKyma("regrow", k -> phase(k, KymaPhase.READY));
        String uid = get(HelmComponent.class, "regrow-ory").getMetadata().getUid();
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("regrow-ory")
                .delete();
        awaitComponent("regrow-ory", c -> !c.getMetadata().getUid().equals(uid));
        awaitKyma(
                "regrow",
                k -> phase(k, KymaPhase.READY) && "2/2".equals(k.getStatus().getReadyComponents()));
    }

    void componentVersionEditedByHand() {
        Kyma kyma = kyma("pinned", "ory");
        kyma.getSpec().getModules().get(0).setVersion("1.0.0");
        create(kyma);
        awaitKyma("pinned", k -> phase(k, KymaPhase.READY));
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("pinned-ory")
                .edit(c -> {
                    c.getSpec().setVersion("6.6.6");
                    return c;
                });
        awaitComponent(
                "pinned-ory",
                c -> "1.0.0".equals(c.getSpec().getVersion()) && c.getMetadata().getGeneration() > 2);
    }

    void kymaModuleVersionChanged() {
        create(kyma("upgrade", "istio", "ory", "kiali"));
        awaitKyma("upgrade", k -> phase(k, KymaPhase.READY));
        List<Kyma> statuses = Collections.synchronizedList(new ArrayList<>());
        List<HelmComponent> components = Collections.synchronizedList(new ArrayList<>());
        try (var kymas = admin.resources(Kyma.class)
                        .inNamespace(NS)
                        .withName("upgrade")
                        .watch(recorder(statuses));
                var children = admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .withLabel(Labels.KYMA, "upgrade")
                        .watch(recorder(components))) {
            Kyma edited = admin.resources(Kyma.class)
                    .inNamespace(NS)
                    .withName("upgrade")
                    .edit(k -> {
                        k.getSpec().getModules().forEach(m -> m.setVersion("2.0.0"));
                        return k;
                    });
            long generation = edited.getMetadata().getGeneration();
            awaitKyma("upgrade", k -> phase(k, KymaPhase.READY) && k.getStatus().getObservedGeneration() == generation);
            Kyma firstReady = statuses.stream()
                    .filter(k -> k.getStatus() != null
                            && k.getStatus().getObservedGeneration() == generation
                            && phase(k, KymaPhase.READY))
                    .findFirst()
                    .orElseThrow();
            long readyVersion = Long.parseLong(firstReady.getMetadata().getResourceVersion());
            for (String module : List.of("istio", "ory", "kiali")) {
                HelmComponent caughtUp = components.stream()
                        .filter(c -> c.getMetadata().getName().equals("upgrade-" + module)
                                && "2.0.0".equals(c.getSpec().getVersion())
                                && c.getStatus() != null
                                && c.getMetadata()
                                        .getGeneration()
                                        .equals(c.getStatus().getObservedGeneration()))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(module + " never caught up"));
                assertThat(Long.parseLong(caughtUp.getMetadata().getResourceVersion()))
                        .as("%s caught up before the Kyma was Ready", module)
                        .isLessThan(readyVersion);
            }
        }
    }

    void componentWithoutKyma() {
        create(component("loner", "ory"));
        awaitComponent("loner", c -> c.getStatus() != null && c.getStatus().getState() == ComponentState.SUCCESS);
    }

    void componentWithoutModule() {
        HelmComponent component = component("no-module", "ory");
        component.getSpec().setModule(null);
        rejected(component, "spec.module", "Required");
    }

    void componentStatusTimeGarbage() {
        HelmComponent component = create(component("garbage-time", "a".repeat(40)));
        awaitComponent(
                "garbage-time", c -> c.getStatus() != null && c.getStatus().getState() == ComponentState.STARTED);
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("garbage-time")
                .editStatus(c -> {
                    c.getStatus().setLastTransitionTime("yesterday");
                    return c;
                });
        assertThat(component).isNotNull();
        awaitComponent("garbage-time", c -> c.getStatus().getState() == ComponentState.SUCCESS);
    }

    void componentStatusTimeAhead() {
        // a module name of 40 characters: each state lasts 400 ms here, which the look every 100 ms cannot miss
        create(component("ahead-time", "b".repeat(40)));
        awaitComponent("ahead-time", c -> c.getStatus() != null && c.getStatus().getState() == ComponentState.STARTED);
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("ahead-time")
                .editStatus(c -> {
                    c.getStatus().setLastTransitionTime("+1000000000-12-31T23:59:59Z");
                    return c;
                });
        // the message saying so lasts one dwell (HelmComponentReconcilerTest reads it); without the clamp the
        // component would wait for the year 1,000,000,000
        awaitComponent("ahead-time", c -> c.getStatus().getState() == ComponentState.SUCCESS);
    }

    void componentStatusTimeCenturiesBack() {
        create(component("ancient-time", "c".repeat(40)));
        awaitComponent(
                "ancient-time", c -> c.getStatus() != null && c.getStatus().getState() == ComponentState.STARTED);
        admin.resources(HelmComponent.class)
                .inNamespace(NS)
                .withName("ancient-time")
                .editStatus(c -> {
                    c.getStatus().setLastTransitionTime("0001-01-01T00:00:00Z"); // Go's zero time
                    return c;
                });
        // its lateness, two thousand years, would overflow the lateness timer and fail every reconcile
        awaitComponent("ancient-time", c -> c.getStatus().getState() == ComponentState.SUCCESS);
    }

    // ---- Runs the schema rejects --------------------------------------------------------------------------------

    void runWithoutJob() {
        Run run = run("no-job", null);
        run.getSpec().setJob(null);
        rejected(run, "spec.job", "Required");
    }

    void runJobNameEmpty() {
        Run run = run("empty-job", null);
        run.getSpec().getJob().setName("");
        rejected(run, "spec.job.name", "at least 1");
    }

    void runServerNotHttp() {
        rejected(run("ftp", "ftp://jobs.example"), "spec.server", "should match");
    }

    void runServerWithCredentials() {
        rejected(run("creds", "http://user:secret@127.0.0.1:9090"), "spec.server", "should match");
    }

    void runServerHostWithUnderscore() {
        rejected(run("underscore", "http://job_server:9090"), "spec.server", "should match");
    }

    void runServerWithQuery() {
        rejected(run("query", "http://127.0.0.1:9090/?debug=1"), "spec.server", "should match");
    }

    void runPollIntervalWithoutUnit() {
        Run run = run("no-unit", null);
        run.getSpec().setPollInterval("5");
        rejected(run, "spec.pollInterval", "should match");
    }

    void runTimeoutNegative() {
        Run run = run("negative", null);
        run.getSpec().setTimeout("-1s");
        rejected(run, "spec.timeout", "should match");
    }

    void runTimeoutTooLongText() {
        Run run = run("long-timeout", null);
        run.getSpec().setTimeout("1".repeat(64) + "s");
        rejected(run, "spec.timeout", "64");
    }

    // ---- Runs that cannot be carried out -------------------------------------------------------------------------

    void runServerPortOutOfRange() {
        create(run("port", "http://127.0.0.1:99999"));
        Run run = awaitFailed("port", "InvalidServer");
        assertThat(run.getStatus().getMessage()).isEqualTo("spec.server: the port must be between 1 and 65535");
        deletable("port");
    }

    void runServerMalformedEscape() {
        create(run("escape", "http://127.0.0.1:9090/a%zz"));
        Run run = awaitFailed("escape", "InvalidServer");
        assertThat(run.getStatus().getMessage()).startsWith("spec.server: not a valid URL: ");
        deletable("escape");
    }

    void runTimeoutOverflows() {
        Run run = run("overflow", null);
        run.getSpec().setTimeout("9999999999h");
        create(run);
        assertThat(awaitFailed("overflow", "InvalidSpec").getStatus().getMessage())
                .startsWith("spec.timeout: ")
                .contains("longer than the longest duration");
    }

    void runPollIntervalOverflows() {
        Run run = run("poll-overflow", null);
        run.getSpec().setPollInterval("99999999999999h");
        create(run);
        assertThat(awaitFailed("poll-overflow", "InvalidSpec").getStatus().getMessage())
                .startsWith("spec.pollInterval: ");
    }

    void runServerNotAllowed() {
        long before = healthy.requests();
        create(run("elsewhere", "http://127.0.0.2:9"));
        assertThat(awaitFailed("elsewhere", "ServerNotAllowed").getStatus().getMessage())
                .contains("127.0.0.2")
                .contains("--remote-server-allow");
        assertThat(healthy.requests()).isEqualTo(before);
    }

    void runServerMetadata() {
        long before = healthy.requests();
        create(run("metadata", "http://169.254.169.254"));
        assertThat(awaitFailed("metadata", "ServerNotAllowed").getStatus().getMessage())
                .contains("169.254.169.254");
        assertThat(healthy.requests()).isEqualTo(before);
    }

    void runParamNameTooLong() {
        create(run("long-param", healthy.url(), Map.of("p".repeat(254), "v", "durationSeconds", "1")));
        assertThat(awaitFailed("long-param", "InvalidSpec").getStatus().getMessage())
                .startsWith("spec.job.params:");
        Run fixed = admin.resources(Run.class)
                .inNamespace(NS)
                .withName("long-param")
                .get();
        fixed.getSpec().getJob().getParams().remove("p".repeat(254));
        admin.resource(fixed).update();
        awaitRun("long-param", r -> r.getStatus() != null && r.getStatus().getPhase() == RunPhase.SUCCEEDED);
    }

    void serviceChattyLog() {
        Run run = run("chatty", healthy.url(), Map.of("durationSeconds", "4", "linesPerSecond", "50"));
        run.getSpec().setPollInterval("100ms");
        long created = System.nanoTime();
        create(run);
        awaitRun("chatty", r -> r.getStatus() != null && r.getStatus().getPhase() == RunPhase.SUCCEEDED);
        Duration took = Duration.ofNanos(System.nanoTime() - created);
        long writes = manager.requests.requests().stream()
                .filter(r -> r.isWrite()
                        && r.name().equals("chatty")
                        && r.subresource().equals("status"))
                .count();
        // per status interval of the time the Run took, which a slow machine stretches: 4 when it takes under 5 s
        long intervals = (took.toMillis() + 4_999) / 5_000;
        assertThat(writes)
                .as("started, about one a status interval (5 s) while it runs (%d ms), the end", took.toMillis())
                .isLessThanOrEqualTo(2 + intervals + 1);
    }

    void runTooManyParams() {
        Map<String, String> params = new HashMap<>();
        IntStream.range(0, 65).forEach(i -> params.put("p" + i, "v"));
        rejected(run("many-params", healthy.url(), params), "spec.job.params", "64");
    }

    void runParamValueTooLong() {
        rejected(run("big-param", healthy.url(), Map.of("big", "v".repeat(4097))), "spec.job.params", "4096");
    }

    void runParamsLargeOnceEncoded() {
        // each control character is six bytes in the start's JSON: 40 values of 4096 are about 960 KiB encoded
        Map<String, String> params = new HashMap<>();
        IntStream.range(0, 40).forEach(i -> params.put("p" + i, "\u0001".repeat(4096)));
        JobServer untouched = server(f -> f);
        create(run("encoded-large", untouched.url(), params));
        assertThat(awaitFailed("encoded-large", "InvalidSpec").getStatus().getMessage())
                .startsWith("spec.job.params: ")
                .contains("KiB once encoded for the job service, more than the 512 KiB");
        assertThat(untouched.requests()).as("nothing sent").isZero();
    }

    void runServerEditedWhileRunning() {
        JobServer first = server(f -> f);
        JobServer second = server(f -> f);
        create(run("edited", first.url(), Map.of("durationSeconds", "6")));
        awaitRun("edited", r -> r.getStatus() != null && r.getStatus().getRemoteId() != null);
        Run edited = get(Run.class, "edited");
        edited.getSpec().setServer(second.url());
        admin.resource(edited).update();
        awaitRun(
                "edited",
                r -> r.getStatus().getMessage() != null
                        && r.getStatus()
                                .getMessage()
                                .contains("spec.server now names " + second.url()
                                        + ", but the job stays on the server it was started on"));
        Run done = awaitRun("edited", r -> r.getStatus().getPhase() == RunPhase.SUCCEEDED);
        assertThat(done.getStatus().getServer()).isEqualTo(first.url());
        assertThat(first.jobsStarted()).isEqualTo(1);
        assertThat(second.requests()).as("the server named later").isZero();
    }

    void runPollIntervalZero() {
        Run run = run("eager", healthy.url(), Map.of("durationSeconds", "1"));
        run.getSpec().setPollInterval("0s");
        create(run);
        awaitRun("eager", r -> r.getStatus() != null && r.getStatus().getPhase() == RunPhase.SUCCEEDED);
    }

    void runTimeoutZero() {
        Run run = run("impatient", healthy.url(), Map.of("durationSeconds", "60"));
        run.getSpec().setTimeout("0s");
        create(run);
        awaitFailed("impatient", "Timeout");
    }

    // ---- the job service misbehaves --------------------------------------------------------------------------

    void serviceRefusesConnections() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        create(run("refused", "http://127.0.0.1:" + port));
        assertThat(awaitRetrying("refused", "Unreachable").getMessage())
                .isEqualTo(RemoteJobClient.UNREACHABLE + "; retrying with backoff");
    }

    void serviceDropsPackets() throws IOException {
        // A listening socket that never accepts: once its backlog is full, the kernel drops every further SYN.
        ServerSocket silent = new ServerSocket();
        silent.bind(new InetSocketAddress("127.0.0.1", 0), 1);
        closing.add(silent);
        for (int i = 0; i < 4; i++) {
            Socket filler = new Socket();
            closing.add(filler);
            try {
                filler.connect(silent.getLocalSocketAddress(), 200);
            } catch (IOException e) {
                break; // the backlog is full
            }
        }
        create(run("dropped", "http://127.0.0.1:" + silent.getLocalPort()));
        Condition dropped = awaitRetrying("dropped", "Unreachable");
        assertThat(dropped.getMessage()).isEqualTo(RemoteJobClient.UNREACHABLE + "; retrying with backoff");
    }

    void serviceHugeBody() {
        JobServer huge = server(f -> f.body(Faults.Body.HUGE).size(8 << 20));
        create(run("huge", huge.url()));
        assertThat(awaitFailed("huge", "AnswerTooLarge").getStatus().getMessage())
                .isEqualTo("the job service's answer is larger than 262144 bytes (--remote-response-limit)");
    }

    void serviceEndlessBody() {
        JobServer endless = server(f -> f.body(Faults.Body.ENDLESS));
        long heapBefore = usedHeapAfterGc();
        for (int i = 0; i < 5; i++) {
            create(run("endless-" + i, endless.url()));
        }
        for (int i = 0; i < 5; i++) {
            awaitFailed("endless-" + i, "AnswerTooLarge");
        }
        assertThat(usedHeapAfterGc() - heapBefore)
                .as("heap growth after five endless answers")
                .isLessThan(64L << 20);
    }

    void serviceSlowBody() {
        JobServer slow = server(f -> f.body(Faults.Body.SLOW));
        create(run("slow-body", slow.url()));
        assertThat(awaitRetrying("slow-body", "Unreachable").getMessage()).startsWith(RemoteJobClient.UNREACHABLE);
    }

    void serviceGarbage() {
        JobServer garbage = server(f -> f.garbageRate(1));
        create(run("garbage", garbage.url()));
        assertThat(awaitRetrying("garbage", "Unreachable").getMessage())
                .as("an answer that is not the job API's says no more than a closed port")
                .isEqualTo(RemoteJobClient.UNREACHABLE + "; retrying with backoff");
    }

    void serviceHugeErrorText() {
        JobServer shouting = server(f -> f.body(Faults.Body.HUGE_ERROR).size(100_000));
        create(run("shouting", shouting.url()));
        Condition condition = awaitRetrying("shouting", "ServerError");
        assertThat(condition.getMessage())
                .startsWith("the job service answered HTTP 503: xxx")
                .contains("x...; retrying")
                .hasSizeLessThan(300);
    }

    void serviceUnknownState() {
        JobServer queueing = server(f -> f.reportedState("queued"));
        create(run("queued", queueing.url(), Map.of("durationSeconds", "600")));
        Run run = awaitRun(
                "queued",
                r -> r.getStatus() != null && "job queued".equals(r.getStatus().getMessage()));
        assertThat(run.getStatus().getPhase()).isEqualTo(RunPhase.RUNNING);
    }

    void serviceForgetsJob() {
        JobServer forgetful = server(f -> f);
        create(run("forgotten", forgetful.url(), Map.of("durationSeconds", "600")));
        awaitRun("forgotten", r -> r.getStatus() != null && r.getStatus().getRemoteId() != null);
        forgetful.restart();
        assertThat(awaitFailed("forgotten", "JobLost").getStatus().getMessage())
                .startsWith("the job service does not know the job (HTTP 404)");
    }

    void serviceRefusesJob() {
        create(run("refusal", healthy.url(), Map.of("reject", "quota exceeded")));
        assertThat(awaitFailed("refusal", "Rejected").getStatus().getMessage())
                .isEqualTo("the job service refused the job (HTTP 422): job refused: quota exceeded");
    }

    void serviceRedirects() throws IOException {
        JobServer target = server(f -> f);
        HttpServer redirecting = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        redirecting.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Location", target.url() + exchange.getRequestURI());
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        });
        redirecting.start();
        closing.add(() -> redirecting.stop(0));
        create(run("redirected", "http://127.0.0.1:" + redirecting.getAddress().getPort()));
        assertThat(awaitRetrying("redirected", "Unreachable").getMessage())
                .isEqualTo(RemoteJobClient.UNREACHABLE + "; retrying with backoff");
        assertThat(target.requests()).as("the service the redirect names").isZero();
    }

    void serviceLoneSurrogate() {
        // the JSON escape of half a surrogate pair: a valid JSON string that is not valid Unicode
        JobServer odd = server(f -> f.reportedState("queued\\ud800"));
        // one log line in 100 s: what the job says stays the same, so nothing is left to write
        Run run = run("surrogate", odd.url(), Map.of("durationSeconds", "600", "linesPerSecond", "0.01"));
        run.getSpec().setPollInterval("100ms");
        create(run);
        awaitRun(
                "surrogate",
                r -> r.getStatus() != null
                        && "job queued\uFFFD".equals(r.getStatus().getMessage()));
        // the write that showed the message may still be on its way back to the operator's request log: count
        // from a few polls later
        long seen = odd.requests();
        await().atMost(HangCatcher.STEP).until(() -> odd.requests() >= seen + 5);
        long writes = statusWrites("surrogate");
        long polls = odd.requests();
        await().atMost(HangCatcher.STEP).until(() -> odd.requests() >= polls + 70); // 7 s, beyond --run-status-interval
        assertThat(statusWrites("surrogate"))
                .as("status writes over 70 more polls")
                .isEqualTo(writes);
        assertThat(get(Run.class, "surrogate").getStatus().getPhase()).isEqualTo(RunPhase.RUNNING);
    }

    private static long statusWrites(String run) {
        return manager.requests.requests().stream()
                .filter(r ->
                        r.isWrite() && r.name().equals(run) && r.subresource().equals("status"))
                .count();
    }

    void serviceBaseUrlWithPath() {
        JobServer underApi = JobServer.startUnder("127.0.0.1", 0, "/api");
        closing.add(underApi);
        assertThat(underApi.url()).endsWith("/api");
        create(run("with-path", underApi.url(), Map.of("durationSeconds", "1")));
        awaitRun("with-path", r -> r.getStatus() != null && r.getStatus().getPhase() == RunPhase.SUCCEEDED);
        assertThat(underApi.jobsStarted()).isEqualTo(1);
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private static JobServer server(UnaryOperator<Faults> faults) {
        JobServer server = JobServer.start("127.0.0.1", 0);
        faults.apply(server.faults());
        closing.add(server);
        return server;
    }

    private static void rejected(HasMetadata resource, String... fragments) {
        assertThatThrownBy(() -> admin.resource(resource).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    for (String fragment : fragments) {
                        assertThat(e.getMessage()).contains(fragment);
                    }
                });
    }

    private static <T extends HasMetadata> T create(T resource) {
        return admin.resource(resource).create();
    }

    private static <T extends HasMetadata> T get(Class<T> type, String name) {
        return admin.resources(type).inNamespace(NS).withName(name).get();
    }

    private static Kyma kyma(String name, String... modules) {
        return Samples.kyma(NS, name, List.of(modules));
    }

    private static HelmComponent component(String name, String module) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule(module);
        return component;
    }

    private static Run run(String name, String server) {
        return run(name, server, Map.of("durationSeconds", "1"));
    }

    private static Run run(String name, String server, Map<String, String> params) {
        Run run = Samples.run(NS, name, "build", params, "200ms", null);
        run.getSpec().setServer(server);
        return run;
    }

    private static boolean phase(Kyma kyma, KymaPhase phase) {
        return kyma != null && kyma.getStatus() != null && kyma.getStatus().getPhase() == phase;
    }

    private static Condition ready(Kyma kyma) {
        return kyma.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("Ready"))
                .findFirst()
                .orElseThrow();
    }

    private static Kyma awaitKyma(String name, Predicate<Kyma> done) {
        return await().atMost(HangCatcher.STEP).until(() -> get(Kyma.class, name), k -> k != null && done.test(k));
    }

    private static HelmComponent awaitComponent(String name, Predicate<HelmComponent> done) {
        return await().atMost(HangCatcher.STEP)
                .until(() -> get(HelmComponent.class, name), c -> c != null && done.test(c));
    }

    private static Run awaitRun(String name, Predicate<Run> done) {
        return await().atMost(HangCatcher.STEP).until(() -> get(Run.class, name), r -> r != null && done.test(r));
    }

    private static Run awaitFailed(String name, String reason) {
        Run run = awaitRun(name, r -> r.getStatus() != null && r.getStatus().getPhase() == RunPhase.FAILED);
        assertThat(run.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Succeeded");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(reason);
        });
        return run;
    }

    /** The RemoteReachable condition once it is False with {@code reason}; the phase has not become Failed. */
    private static Condition awaitRetrying(String name, String reason) {
        Run run = awaitRun(
                name,
                r -> r.getStatus() != null
                        && r.getStatus().getConditions().stream()
                                .anyMatch(c -> c.getType().equals("RemoteReachable") && reason.equals(c.getReason())));
        assertThat(run.getStatus().getPhase()).isNotEqualTo(RunPhase.FAILED);
        return run.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("RemoteReachable"))
                .findFirst()
                .orElseThrow();
    }

    private static void deletable(String name) {
        admin.resources(Run.class).inNamespace(NS).withName(name).delete();
        await().atMost(HangCatcher.STEP).until(() -> get(Run.class, name) == null);
    }

    private static <T extends HasMetadata> Watcher<T> recorder(List<T> seen) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                seen.add(resource);
            }

            @Override
            public void onClose(WatcherException cause) {}
        };
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
