package io.kyma.operator.bench.micro;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.watch.OnePassSerialization;

/**
 * The client's JSON reading on the operator's two hottest paths, fabric8's default mapping against the operator's
 * ({@link OnePassSerialization}): a HelmComponent watch event into the watched type, and the API server's answer to a
 * status write. Run by {@code make bench-serialization}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerializationBench {
    private final KubernetesSerialization fabric8 = new KubernetesSerialization();
    private final OnePassSerialization onePass =
            new OnePassSerialization(List.of(Kyma.class, HelmComponent.class, Run.class));
    private final HelmComponent component = component();
    private final String event = "{\"type\":\"MODIFIED\",\"object\":" + fabric8.asJson(component) + "}";
    private final byte[] answer = fabric8.asJson(component).getBytes(StandardCharsets.UTF_8);

    /** What fabric8's watch does with a message of a kind it has not registered: tree, nested maps, typed. */
    @Benchmark
    public Object watchEventFabric8() {
        WatchEvent read = fabric8.unmarshal(event, WatchEvent.class);
        return read.getObject() instanceof HelmComponent typed
                ? typed
                : fabric8.convertValue(read.getObject(), HelmComponent.class);
    }

    @Benchmark
    public Object watchEventOnePass() {
        return onePass.unmarshal(event, WatchEvent.class).getObject();
    }

    @Benchmark
    public HelmComponent statusAnswerFabric8() {
        return fabric8.unmarshal(new ByteArrayInputStream(answer), HelmComponent.class);
    }

    @Benchmark
    public HelmComponent statusAnswerOnePass() {
        return onePass.unmarshal(new ByteArrayInputStream(answer), HelmComponent.class);
    }

    /** A component as the API server sends it mid-installation: labels, owner, managedFields of two managers. */
    static HelmComponent component() {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName("kyma-7-istio")
                .withNamespace("pb")
                .withUid("5a7a1c55-1f0e-4a84-a3a4-5d8f0c2b9e01")
                .withResourceVersion("48151")
                .withGeneration(1L)
                .withCreationTimestamp("2026-11-24T00:10:01Z")
                .withLabels(Map.of("inventory.kyma-project.io/kyma", "kyma-7", "inventory.kyma-project.io/shard", "0"))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion("inventory.kyma-project.io/v1alpha1")
                        .withKind("Kyma")
                        .withName("kyma-7")
                        .withUid("0b6f3c1e-4b38-4f4e-9c51-8a0d1f1f2d11")
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .withManagedFields(
                        new ManagedFieldsEntryBuilder()
                                .withManager("kyma-operator")
                                .withOperation("Apply")
                                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                                .withFieldsType("FieldsV1")
                                .withTime("2026-11-24T00:10:01Z")
                                .withFieldsV1(fields(Map.of(
                                        "f:metadata",
                                        Map.of(
                                                "f:labels",
                                                Map.of("f:inventory.kyma-project.io/kyma", Map.of()),
                                                "f:ownerReferences",
                                                Map.of(
                                                        "k:{\"uid\":\"0b6f3c1e-4b38-4f4e-9c51-8a0d1f1f2d11\"}",
                                                        Map.of())),
                                        "f:spec",
                                        Map.of("f:kyma", Map.of(), "f:module", Map.of(), "f:version", Map.of()))))
                                .build(),
                        new ManagedFieldsEntryBuilder()
                                .withManager("kyma-operator")
                                .withOperation("Apply")
                                .withApiVersion("inventory.kyma-project.io/v1alpha1")
                                .withFieldsType("FieldsV1")
                                .withTime("2026-11-24T00:10:05Z")
                                .withSubresource("status")
                                .withFieldsV1(fields(Map.of(
                                        "f:status",
                                        Map.of(
                                                "f:lastTransitionTime",
                                                Map.of(),
                                                "f:observedGeneration",
                                                Map.of(),
                                                "f:state",
                                                Map.of()))))
                                .build())
                .build());
        HelmComponentSpec spec = new HelmComponentSpec();
        spec.setKyma("kyma-7");
        spec.setModule("istio");
        spec.setVersion("1.2.3");
        component.setSpec(spec);
        component.setStatus(status());
        return component;
    }

    private static FieldsV1 fields(Map<String, Object> owned) {
        FieldsV1 fields = new FieldsV1();
        owned.forEach(fields::setAdditionalProperty);
        return fields;
    }

    private static HelmComponentStatus status() {
        HelmComponentStatus status = new HelmComponentStatus();
        status.setState(ComponentState.STARTED);
        status.setLastTransitionTime("2026-11-24T00:10:05Z");
        status.setObservedGeneration(1L);
        return status;
    }
}
