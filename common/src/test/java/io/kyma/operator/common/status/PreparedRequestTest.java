package io.kyma.operator.common.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** What the prepared status write sends, compared with what fabric8's generic patch sends for the same object. */
class PreparedRequestTest {
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Test
    void theUrlIsTheStatusSubresourceOfTheNamedObjectWithTheApplyQuery() {
        assertThat(PreparedRequest.url(
                        "https://10.0.0.1:6443", gadget("ns-1", "g.1"), PreparedRequest.APPLY, "kyma-operator"))
                .isEqualTo("https://10.0.0.1:6443/apis/test.example.io/v1/namespaces/ns-1/gadgetz/g.1/status"
                        + "?force=true&fieldManager=kyma-operator");
        assertThat(PreparedRequest.url(
                        "https://proxy.example/clusters/a/",
                        gadget("ns-1", "g-1"),
                        "application/merge-patch+json",
                        "a manager"))
                .as("a master URL with a path; merge patches are not forced; the manager is encoded")
                .isEqualTo("https://proxy.example/clusters/a/apis/test.example.io/v1/namespaces/ns-1/gadgetz/"
                        + "g-1/status?fieldManager=a+manager");
        Cluster cluster = new Cluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c").build());
        assertThat(PreparedRequest.url("https://h/", cluster, PreparedRequest.APPLY, "m"))
                .isEqualTo("https://h/apis/test.example.io/v1/clusters/c/status?force=true&fieldManager=m");
    }

    @Test
    void aCreateGoesToTheKindsCollectionInTheNamespace() {
        assertThat(PreparedRequest.collection("https://10.0.0.1:6443/", gadget("ns-1", "g-1"))
                        .toString())
                .isEqualTo("https://10.0.0.1:6443/apis/test.example.io/v1/namespaces/ns-1/gadgetz");
    }

    @Test
    void aNameThatIsNotOnePathSegmentIsRefusedBeforeAnythingIsSent() {
        assertThatThrownBy(() -> PreparedRequest.url("https://h", gadget("ns", "a/../b"), PreparedRequest.APPLY, "m"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("name")
                .hasMessageContaining("a/../b");
        assertThatThrownBy(() -> PreparedRequest.url("https://h", gadget(null, "a"), PreparedRequest.APPLY, "m"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("namespace");
    }

    @Test
    void theApplyBodyIsWhatFabric8WritesForTheStatusOnlyObject() throws Exception {
        Gadget statusOnly = gadget("ns-1", "g-1");
        GadgetStatus status = new GadgetStatus();
        status.state = "Ready \"quoted\" \u00e9";
        status.reasons = List.of("a", "b");
        statusOnly.setStatus(status);
        String body = PreparedRequest.applyBody(serialization, statusOnly, "42");

        statusOnly.getMetadata().setResourceVersion("42");
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(body)).isEqualTo(json.readTree(serialization.asJson(statusOnly)));

        Gadget noStatus = gadget("ns-1", "g-2");
        assertThat(json.readTree(PreparedRequest.applyBody(serialization, noStatus, null)))
                .isEqualTo(json.readTree(serialization.asJson(noStatus)));
    }

    private static Gadget gadget(String namespace, String name) {
        Gadget gadget = new Gadget();
        gadget.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        return gadget;
    }

    @Group("test.example.io")
    @Version("v1")
    @Plural("gadgetz")
    public static class Gadget extends CustomResource<Void, GadgetStatus> implements Namespaced {}

    public static class GadgetStatus {
        public String state;
        public List<String> reasons;
        public String unset;
    }

    @Group("test.example.io")
    @Version("v1")
    public static class Cluster extends CustomResource<Void, Void> {}
}
