package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.Namespaces;

/**
 * The prepared writes against a real API server: a create, and both ways of writing a status the benchmark compares,
 * the operator's server-side apply among them (the same result, the same guard).
 */
class StatusVerbsIT {
    private static KubernetesClient client;
    private static String namespace;

    @BeforeAll
    static void cluster() {
        client = EmbeddedControlPlane.get().newClient();
        Crds.install(client);
        namespace = Namespaces.apply(client, "status-patch-it");
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @ParameterizedTest
    @EnumSource(StatusVerb.class)
    void theStatusIsReplacedWholeAndAStaleResourceVersionIsAConflict(StatusVerb verb) {
        String name = "c-" + verb.name().toLowerCase(Locale.ROOT);
        HelmComponent component = new HelmComponent();
        component.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setModule("ory");
        HelmComponent created = client.resource(component).create();
        assertThat(created.getMetadata().getUid())
                .as("created as fabric8's create() does")
                .isNotBlank();
        assertThat(created.getSpec().getModule()).isEqualTo("ory");
        assertThatThrownBy(() -> client.resource(component).create())
                .as("the name is taken")
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
                });

        HelmComponent failing =
                verb.write(client, created, statusOnly(name, ComponentState.FAILING, "boom"), "status-patch-it");
        assertThat(failing.getStatus().getState()).isEqualTo(ComponentState.FAILING);
        assertThat(failing.getStatus().getMessage()).isEqualTo("boom");

        HelmComponent retrying =
                verb.write(client, failing, statusOnly(name, ComponentState.RETRYING, null), "status-patch-it");
        HelmComponent stored = client.resources(HelmComponent.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
        assertThat(stored.getStatus().getState()).isEqualTo(ComponentState.RETRYING);
        assertThat(stored.getStatus().getMessage())
                .as("a field the new status leaves out is gone")
                .isNull();
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(retrying.getMetadata().getResourceVersion());
        assertThat(stored.getSpec().getModule()).isEqualTo("ory");

        assertThatThrownBy(() ->
                        verb.write(client, failing, statusOnly(name, ComponentState.SUCCESS, null), "status-patch-it"))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(client.resources(HelmComponent.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get()
                        .getStatus()
                        .getState())
                .isEqualTo(ComponentState.RETRYING);
        assertThat(stored.getMetadata().getManagedFields())
                .as("the status is written under the given field manager (and through the status subresource: the "
                        + "API server ignores a status sent to the object itself)")
                .anySatisfy(entry -> assertThat(entry.getManager()).isEqualTo("status-patch-it"));
    }

    @ParameterizedTest
    @EnumSource(StatusVerb.class)
    void aMissingObjectIsTheApiServersNotFound(StatusVerb verb) {
        HelmComponent gone = statusOnly("never-created", ComponentState.STARTED, null);
        gone.getMetadata().setResourceVersion("1");
        assertThatThrownBy(() -> verb.write(
                        client, gone, statusOnly("never-created", ComponentState.SUCCESS, null), "status-patch-it"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
                    assertThat(e.getMessage()).contains("never-created");
                });
    }

    private HelmComponent statusOnly(String name, ComponentState state, String message) {
        HelmComponent statusOnly = new HelmComponent();
        statusOnly.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        statusOnly.setStatus(new HelmComponentStatus());
        statusOnly.getStatus().setState(state);
        statusOnly.getStatus().setMessage(message);
        return statusOnly;
    }
}
