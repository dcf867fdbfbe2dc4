package io.kyma.operator.manager.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;

class OnePassSerializationTest {
    private final OnePassSerialization onePass =
            new OnePassSerialization(List.of(Kyma.class, HelmComponent.class, Run.class));
    private final KubernetesSerialization fabric8 = new KubernetesSerialization();

    /** A HelmComponent event as the API server writes it: keys sorted, managedFields and all. */
    static final String COMPONENT_EVENT = """
            {"type":"MODIFIED","object":{"apiVersion":"inventory.kyma-project.io/v1alpha1","kind":"HelmComponent",\
            "metadata":{"creationTimestamp":"2026-11-24T00:10:01Z","generation":1,\
            "labels":{"inventory.kyma-project.io/kyma":"kyma-7","inventory.kyma-project.io/shard":"0"},\
            "managedFields":[{"apiVersion":"inventory.kyma-project.io/v1alpha1","fieldsType":"FieldsV1",\
            "fieldsV1":{"f:status":{"f:lastTransitionTime":{},"f:state":{}}},"manager":"kyma-operator",\
            "operation":"Apply","subresource":"status","time":"2026-11-24T00:10:05Z"}],\
            "name":"kyma-7-istio","namespace":"pb",\
            "ownerReferences":[{"apiVersion":"inventory.kyma-project.io/v1alpha1",\
            "blockOwnerDeletion":true,"controller":true,"kind":"Kyma","name":"kyma-7",\
            "uid":"0b6f3c1e-4b38-4f4e-9c51-8a0d1f1f2d11"}],"resourceVersion":"48151",\
            "uid":"5a7a1c55-1f0e-4a84-a3a4-5d8f0c2b9e01"},\
            "spec":{"kyma":"kyma-7","module":"istio","version":"1.2.3"},\
            "status":{"lastTransitionTime":"2026-11-24T00:10:05Z","observedGeneration":1,"state":"started"}}}""";

    @Test
    void readsAComponentEventInOnePassAsFabric8ReadsIt() {
        WatchEvent event = onePass.readWatchEvent(COMPONENT_EVENT);

        assertThat(event).isNotNull();
        assertThat(event.getType()).isEqualTo("MODIFIED");
        HelmComponent component = (HelmComponent) event.getObject();
        assertThat(component.getMetadata().getResourceVersion()).isEqualTo("48151");
        assertThat(component.getStatus().getState()).isEqualTo(ComponentState.STARTED);
        assertThat(component.getSpec().getModule()).isEqualTo("istio");
        assertThat(component.getMetadata().getManagedFields()).isEmpty();
        assertSameAsFabric8(COMPONENT_EVENT, HelmComponent.class);
        // fabric8 on its own reads a kind it has not registered into nested maps first
        assertThat(fabric8.unmarshal(COMPONENT_EVENT, WatchEvent.class).getObject())
                .isInstanceOf(GenericKubernetesResource.class);
    }

    @Test
    void readsAKymaEventAndAnyOrderOfApiVersionAndKind() {
        String kymaEvent = """
                {"object":{"kind":"Kyma","apiVersion":"inventory.kyma-project.io/v1alpha1",\
                "metadata":{"name":"kyma-7","namespace":"pb","resourceVersion":"7","finalizers":["x/y"]},\
                "spec":{"modules":[{"name":"istio","version":"1.2.3"}]},\
                "status":{"phase":"Processing","conditions":[{"type":"Ready","status":"False","reason":"Installing",\
                "message":"3 of 18","lastTransitionTime":"2026-11-24T00:10:05Z"}]}},"type":"ADDED"}""";

        assertThat(onePass.readWatchEvent(kymaEvent)).isNotNull();
        assertSameAsFabric8(kymaEvent, Kyma.class);
    }

    @Test
    void readsABookmark() {
        String bookmark = """
                {"type":"BOOKMARK",\
                "object":{"apiVersion":"inventory.kyma-project.io/v1alpha1","kind":"HelmComponent",\
                "metadata":{"resourceVersion":"90210","creationTimestamp":null}}}""";

        WatchEvent event = onePass.readWatchEvent(bookmark);

        assertThat(event).isNotNull();
        assertThat(((HasMetadata) event.getObject()).getMetadata().getResourceVersion())
                .isEqualTo("90210");
        assertSameAsFabric8(bookmark, HelmComponent.class);
    }

    @Test
    void leavesEverythingElseToFabric8() {
        String error = """
                {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
                "message":"too old resource version: 1 (90210)","reason":"Expired","code":410}}""";
        String kindNotFirst = COMPONENT_EVENT.replace(
                "{\"apiVersion\":\"inventory.kyma-project.io/v1alpha1\",\"kind\":" + "\"HelmComponent\",\"metadata\":{",
                "{\"metadata\":{\"name\":\"x\"},\"apiVersion\":"
                        + "\"inventory.kyma-project.io/v1alpha1\",\"kind\":\"HelmComponent\",\"spec\":{},\"x\":{");
        String otherVersion = COMPONENT_EVENT.replace(
                "inventory.kyma-project.io/v1alpha1\",\"kind\":\"HelmComponent",
                "inventory.kyma-project.io/v2\",\"kind\":\"HelmComponent");
        String extraTopLevelField = COMPONENT_EVENT.replaceFirst("\\{\"type\"", "{\"extra\":1,\"type\"");
        String truncated = COMPONENT_EVENT.substring(0, COMPONENT_EVENT.length() - 10);
        String trailing = COMPONENT_EVENT + "{}";

        for (String message : List.of(error, kindNotFirst, otherVersion, extraTopLevelField, truncated, trailing)) {
            assertThat(onePass.readWatchEvent(message)).as(message).isNull();
        }
        // and the public entry point answers as fabric8 does
        WatchEvent status = onePass.unmarshal(error, WatchEvent.class);
        assertThat(status.getObject()).isInstanceOf(Status.class);
        assertThat(((Status) status.getObject()).getCode()).isEqualTo(410);
    }

    @Test
    void writesAStatusAsFabric8Does() {
        HelmComponent component =
                onePass.unmarshal(COMPONENT_EVENT, WatchEvent.class).getObject() instanceof HelmComponent c ? c : null;
        HelmComponentStatus status = new HelmComponentStatus();
        status.setState(ComponentState.FAILING);
        status.setLastTransitionTime("2026-11-24T00:10:09Z");
        component.setStatus(status);

        assertThat(onePass.asJson(component)).isEqualTo(fabric8.asJson(component));
    }

    @Test
    void readsTheAnswerToAWriteWithoutManagedFields() {
        String answer =
                COMPONENT_EVENT.substring(COMPONENT_EVENT.indexOf("{\"apiVersion"), COMPONENT_EVENT.length() - 1);

        HelmComponent ours = onePass.unmarshal(stream(answer), HelmComponent.class);
        HelmComponent theirs = fabric8.unmarshal(answer, HelmComponent.class);

        assertThat(theirs.getMetadata().getManagedFields()).hasSize(1);
        assertThat(ours.getMetadata().getManagedFields()).isEmpty();
        theirs.getMetadata().setManagedFields(null);
        assertThat(onePass.asJson(ours)).isEqualTo(fabric8.asJson(theirs));

        // not starting with '{' (whitespace first, or YAML): fabric8's own reading, the same object
        HelmComponent spaced = onePass.unmarshal(stream("\n  " + answer), HelmComponent.class);
        assertThat(onePass.asJson(spaced)).isEqualTo(onePass.asJson(ours));
        HelmComponent yaml = onePass.unmarshal(stream(fabric8.asYaml(theirs)), HelmComponent.class);
        assertThat(yaml.getStatus().getState()).isEqualTo(ComponentState.STARTED);
        assertThat(yaml.getMetadata().getName()).isEqualTo("kyma-7-istio");
        // another kind is not read with the prepared readers
        assertThat(onePass.unmarshal(stream("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":409}"), Status.class)
                        .getCode())
                .isEqualTo(409);
    }

    /**
     * fabric8's plain HTTP watch frames events by decoding each network read on its own and appending the decoder's
     * whole buffer, NULs where a character of more than one byte left it unfilled, so that they land inside the event
     * that goes on in the next read. Events of several kinds, each cut into two reads at every position, read as the
     * event the API server sent.
     */
    @Test
    void readsAnEventOfAPlainHttpWatchAsTheApiServerSentIt() {
        String kymaEvent = """
                {"type":"MODIFIED","object":{"apiVersion":"inventory.kyma-project.io/v1alpha1","kind":"Kyma",\
                "metadata":{"name":"kyma-7","namespace":"pb","resourceVersion":"7"},\
                "spec":{"modules":[{"name":"istio"}]},"status":{"phase":"Error","conditions":[{"type":"Ready",\
                "status":"False","reason":"Http403","message":"the gate \u00abx\u00bb refuses \u2013 \u00e9t\u00e9",\
                "lastTransitionTime":"2026-11-24T00:10:05Z"}]}}}""";
        String error = """
                {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
                "message":"too old resource version \u2013 1","reason":"Expired","code":410}}""";
        String componentEvent = COMPONENT_EVENT.replace(
                "\"state\":\"started\"", "\"message\":\"\u00e9chec \u2013 x\",\"state\":\"started\"");
        int padded = 0;
        for (String sent : List.of(kymaEvent, error, componentEvent)) {
            byte[] bytes = (sent + "\n").getBytes(StandardCharsets.UTF_8);
            String expected = onePass.asJson(onePass.unmarshal(sent, WatchEvent.class));
            for (int cut = 1; cut < bytes.length; cut++) {
                String received = plainHttpWatchLine(bytes, cut);
                if (!received.replace("\0", "").equals(sent)) {
                    continue; // the cut split a character, which fabric8 reads as replacement characters
                }
                padded += received.equals(sent) ? 0 : 1;
                assertThat(onePass.asJson(onePass.unmarshal(received, WatchEvent.class)))
                        .as("cut at byte %d of %s", cut, sent)
                        .isEqualTo(expected);
            }
        }
        assertThat(padded).as("events that came with NULs").isPositive();
    }

    /** The line fabric8 7.5's plain HTTP watch makes of {@code event} received in two reads, cut at {@code cut}. */
    private static String plainHttpWatchLine(byte[] event, int cut) {
        StringBuilder line = new StringBuilder();
        for (byte[] read : List.of(Arrays.copyOfRange(event, 0, cut), Arrays.copyOfRange(event, cut, event.length))) {
            for (char c : StandardCharsets.UTF_8.decode(ByteBuffer.wrap(read)).array()) {
                if (c == '\n') {
                    return line.toString();
                }
                line.append(c);
            }
        }
        return line.toString();
    }

    private static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Our reading of the event and fabric8's (tree, generic resource, then converted to the watched type) agree, but
     * for the managedFields we leave out.
     */
    private void assertSameAsFabric8(String message, Class<? extends HasMetadata> watched) {
        WatchEvent ours = onePass.unmarshal(message, WatchEvent.class);
        WatchEvent theirs = fabric8.unmarshal(message, WatchEvent.class);
        HasMetadata theirObject = watched.isInstance(theirs.getObject())
                ? (HasMetadata) theirs.getObject()
                : fabric8.convertValue(theirs.getObject(), watched);
        theirObject.getMetadata().setManagedFields(null);

        assertThat(ours.getType()).isEqualTo(theirs.getType());
        assertThat(ours.getObject()).isInstanceOf(watched);
        assertThat(onePass.asJson(ours.getObject())).isEqualTo(fabric8.asJson(theirObject));
    }
}
