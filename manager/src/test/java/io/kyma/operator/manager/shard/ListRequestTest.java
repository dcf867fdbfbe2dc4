package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.Kyma;

class ListRequestTest {

    private static ByteArrayInputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theUrlNamesTheKindsGroupTheNamespaceAndTheEncodedSelector() throws IOException {
        URL master = URI.create("https://api.example:6443//").toURL();
        assertThat(ListRequest.url(master, Kyma.class, Optional.of("ns"), "a in (1,2),b"))
                .isEqualTo("https://api.example:6443/apis/" + Kyma.GROUP + "/" + Kyma.VERSION + "/namespaces/ns/kymas"
                        + "?labelSelector=a+in+%281%2C2%29%2Cb");
        assertThat(ListRequest.url(master, Lease.class, Optional.empty(), "x"))
                .isEqualTo("https://api.example:6443/apis/coordination.k8s.io/v1/leases?labelSelector=x");
    }

    @Test
    void aGoneSnapshotCarriesTheTokenThatGoesOn() throws IOException {
        KubernetesClientException failure = ListRequest.failure(
                Kyma.class,
                410,
                body("{\"kind\":\"Status\",\"message\":\"too old\",\"metadata\":{\"continue\":\"onward\"}}"));
        assertThat(failure).isInstanceOf(ListRequest.Expired.class).hasMessage("too old");
        assertThat(((ListRequest.Expired) failure).onward()).isEqualTo("onward");
        assertThat(failure.getCode()).isEqualTo(410);

        ListRequest.Expired bare = (ListRequest.Expired) ListRequest.failure(Kyma.class, 410, body("{}"));
        assertThat(bare.onward()).as("no token given").isNull();
    }

    @Test
    void anyOtherErrorSaysTheCodeAndTheStatusMessage() throws IOException {
        KubernetesClientException failure =
                ListRequest.failure(Kyma.class, 403, body("{\"kind\":\"Status\",\"message\":\"kymas is forbidden\"}"));
        assertThat(failure).isNotInstanceOf(ListRequest.Expired.class);
        assertThat(failure.getCode()).isEqualTo(403);
        assertThat(failure.getMessage()).contains("cannot list kymas: HTTP 403 kymas is forbidden");
    }
}
