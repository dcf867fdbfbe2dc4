package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.shard.Shards;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;
import io.kyma.operator.testing.RequestRecorder;

/**
 * Two replicas of the operator split one namespace as two shards: each Kyma and Run gets the shard its name hashes
 * to, its components follow it, and only the replica of that shard writes their status or creates their components.
 */
class ShardingIT {
    private static final String NS = "kyma-shards";
    private static final Shards TWO = new Shards(2, 0);
    private static final int KYMAS = 10;

    @Test
    void eachObjectIsReconciledByTheReplicaOfItsShardAndComponentsFollowTheirKyma() {
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, NS);
            Map<Integer, Long> perShard = IntStream.range(0, KYMAS)
                    .boxed()
                    .collect(Collectors.groupingBy(i -> TWO.of(NS, "kyma-" + i), Collectors.counting()));
            assertThat(perShard.keySet())
                    .as("the names chosen give both shards work")
                    .containsExactly(0, 1);
            try (RunningManager zero = new RunningManager(
                            NS,
                            "--transition-unit",
                            "10ms",
                            "--remote-server-allow",
                            "127.0.0.1",
                            "--shards",
                            "2",
                            "--shard-id",
                            "0");
                    RunningManager one = new RunningManager(
                            NS,
                            "--transition-unit",
                            "10ms",
                            "--remote-server-allow",
                            "127.0.0.1",
                            "--shards",
                            "2",
                            "--shard-id",
                            "kyma-operator-1")) {
                for (int i = 0; i < KYMAS; i++) {
                    admin.resource(Samples.kyma(NS, "kyma-" + i, Samples.MODULES.subList(0, 4)))
                            .create();
                }
                Run run = Samples.run(NS, "unreachable", "build", Map.of(), "5s", null);
                run.getSpec().setServer("http://127.0.0.1:9");
                admin.resource(run).create();

                await().atMost(HangCatcher.LOAD)
                        .until(() -> admin.resources(Kyma.class).inNamespace(NS).list().getItems().stream()
                                        .filter(k -> k.getStatus() != null
                                                && k.getStatus().getPhase() == KymaPhase.READY)
                                        .count()
                                == KYMAS);
                await().atMost(HangCatcher.STEP).until(() -> {
                    Run r = admin.resources(Run.class)
                            .inNamespace(NS)
                            .withName("unreachable")
                            .get();
                    return r.getStatus() != null
                            && !r.getStatus().getConditions().isEmpty();
                });

                Map<String, String> shardOf = new HashMap<>();
                for (Kyma kyma :
                        admin.resources(Kyma.class).inNamespace(NS).list().getItems()) {
                    assertThat(kyma.getMetadata().getLabels())
                            .as(kyma.getMetadata().getName())
                            .containsEntry(
                                    Labels.SHARD,
                                    Integer.toString(
                                            TWO.of(NS, kyma.getMetadata().getName())));
                    shardOf.put(
                            "kymas/" + kyma.getMetadata().getName(),
                            kyma.getMetadata().getLabels().get(Labels.SHARD));
                }
                List<HelmComponent> components = admin.resources(HelmComponent.class)
                        .inNamespace(NS)
                        .list()
                        .getItems();
                assertThat(components).hasSize(KYMAS * 4);
                for (HelmComponent component : components) {
                    String kyma = component.getMetadata().getLabels().get(Labels.KYMA);
                    assertThat(component.getMetadata().getLabels().get(Labels.SHARD))
                            .as(component.getMetadata().getName() + " follows its Kyma")
                            .isEqualTo(shardOf.get("kymas/" + kyma));
                    shardOf.put(
                            "helmcomponents/" + component.getMetadata().getName(),
                            component.getMetadata().getLabels().get(Labels.SHARD));
                }
                Run labelled = admin.resources(Run.class)
                        .inNamespace(NS)
                        .withName("unreachable")
                        .get();
                assertThat(labelled.getMetadata().getLabels())
                        .containsEntry(Labels.SHARD, Integer.toString(TWO.of(NS, "unreachable")));
                shardOf.put(
                        "runs/unreachable", labelled.getMetadata().getLabels().get(Labels.SHARD));

                Map<String, Long> labelPatches = Stream.of(zero.requests, one.requests)
                        .flatMap(r -> r.requests().stream())
                        .filter(r -> r.isWrite()
                                && r.method().equals("PATCH")
                                && r.resource().equals("kymas")
                                && r.subresource().isEmpty()
                                && !r.query().contains("fieldManager"))
                        .collect(Collectors.groupingBy(RequestRecorder.Request::name, Collectors.counting()));
                assertThat(labelPatches)
                        .as("each Kyma labelled once, by the replica of its shard")
                        .hasSize(KYMAS)
                        .allSatisfy(
                                (kyma, patches) -> assertThat(patches).as(kyma).isEqualTo(1));
                assertOnlyItsShardsObjects(zero.requests, "0", shardOf);
                assertOnlyItsShardsObjects(one.requests, "1", shardOf);
            }
        }
    }

    @Test
    void shardLabelsATenantWritesAreLabelledBackOrReportedAndIgnored() {
        String ns = "kyma-shard-relabel";
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            Crds.install(admin);
            Namespaces.apply(admin, ns);
            try (RunningManager zero =
                            new RunningManager(ns, "--transition-unit", "10ms", "--shards", "2", "--shard-id", "0");
                    RunningManager one =
                            new RunningManager(ns, "--transition-unit", "10ms", "--shards", "2", "--shard-id", "1")) {
                admin.resource(Samples.kyma(ns, "moved", Samples.MODULES.subList(0, 2)))
                        .create();
                await().atMost(HangCatcher.STEP).until(() -> ready(admin, ns, "moved"));
                String own = Integer.toString(new Shards(2, 0).of(ns, "moved"));
                String other = own.equals("0") ? "1" : "0";
                String component = "moved-" + Samples.MODULES.get(0);
                // anyone who may edit the component may write its shard label
                admin.resources(HelmComponent.class)
                        .inNamespace(ns)
                        .withName(component)
                        .edit(c -> {
                            c.getMetadata().getLabels().put(Labels.SHARD, other);
                            return c;
                        });
                await().atMost(HangCatcher.STEP)
                        .until(() -> own.equals(admin.resources(HelmComponent.class)
                                .inNamespace(ns)
                                .withName(component)
                                .get()
                                .getMetadata()
                                .getLabels()
                                .get(Labels.SHARD)));
                await().atMost(HangCatcher.STEP).until(() -> ready(admin, ns, "moved"));

                // a drain value the hand-over does not define stops nothing, and the Kyma says it was ignored
                label(admin, ns, Kyma.class, "moved", "hold");
                label(admin, ns, HelmComponent.class, component, "later");
                await().atMost(HangCatcher.STEP)
                        .until(() -> shardLabels(admin, ns, "moved")
                                .filter(c -> "False".equals(c.getStatus())
                                        && "UnknownDrainValue".equals(c.getReason())
                                        && c.getMessage().contains("Kyma moved has " + Labels.SHARD_DRAIN + "=hold")
                                        && c.getMessage()
                                                .contains("HelmComponent " + component + " has " + Labels.SHARD_DRAIN
                                                        + "=later"))
                                .isPresent());
                admin.resources(Kyma.class).inNamespace(ns).withName("moved").edit(k -> {
                    k.getSpec().getModules().add(new io.kyma.operator.api.Module(Samples.MODULES.get(2), null));
                    return k;
                });
                await().atMost(HangCatcher.STEP)
                        .until(() -> admin.resources(HelmComponent.class)
                                                .inNamespace(ns)
                                                .withName("moved-" + Samples.MODULES.get(2))
                                                .get()
                                        != null
                                && ready(admin, ns, "moved"));
                label(admin, ns, Kyma.class, "moved", null);
                label(admin, ns, HelmComponent.class, component, null);
                await().atMost(HangCatcher.STEP)
                        .until(() -> shardLabels(admin, ns, "moved").isEmpty());
                assertThat(ready(admin, ns, "moved")).isTrue();
            }
        }
    }

    private static <T extends HasMetadata> void label(
            KubernetesClient admin, String ns, Class<T> kind, String name, String drain) {
        admin.resources(kind).inNamespace(ns).withName(name).edit(o -> {
            if (drain == null) {
                o.getMetadata().getLabels().remove(Labels.SHARD_DRAIN);
            } else {
                o.getMetadata().getLabels().put(Labels.SHARD_DRAIN, drain);
            }
            return o;
        });
    }

    private static Optional<Condition> shardLabels(KubernetesClient admin, String ns, String name) {
        Kyma kyma = admin.resources(Kyma.class).inNamespace(ns).withName(name).get();
        return kyma.getStatus() == null
                ? Optional.empty()
                : kyma.getStatus().getConditions().stream()
                        .filter(c -> "ShardLabels".equals(c.getType()))
                        .findFirst();
    }

    private static boolean ready(KubernetesClient admin, String ns, String name) {
        Kyma kyma = admin.resources(Kyma.class).inNamespace(ns).withName(name).get();
        return kyma != null && kyma.getStatus() != null && kyma.getStatus().getPhase() == KymaPhase.READY;
    }

    /**
     * Status writes and component creates and patches are the controllers' own; each replica made them for the objects
     * of its shard only, and made some. (Label patches on Kymas and Runs are the assigner's, which any replica may
     * write, always with the same value.)
     */
    private static void assertOnlyItsShardsObjects(
            RequestRecorder recorder, String shard, Map<String, String> shardOf) {
        Set<String> written = recorder.requests().stream()
                .filter(RequestRecorder.Request::isWrite)
                .filter(r -> r.subresource().equals("status") || r.resource().equals("helmcomponents"))
                .filter(r -> !r.name().isEmpty())
                .map(r -> r.resource() + "/" + r.name())
                .collect(Collectors.toSet());
        assertThat(written).as("shard " + shard + " wrote").isNotEmpty();
        assertThat(written)
                .allSatisfy(object -> assertThat(shardOf.get(object))
                        .as(object + " written by the replica of shard " + shard)
                        .isEqualTo(shard));
    }
}
