package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.Namespaces;

/** What an interrupted run leaves behind, Kymas held by their finalizer included, is deleted before the next. */
class LeftoversIT {
    private static final String NS = "bench-leftovers";

    @Test
    void deletesKymasWithFinalizersAndMoreComponentsThanOnePage() throws Exception {
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            Crds.install(client);
            Namespaces.apply(client, NS);
            for (int i = 0; i < 3; i++) {
                Kyma kyma = new Kyma();
                kyma.setMetadata(new ObjectMetaBuilder()
                        .withName("left-" + i)
                        .withNamespace(NS)
                        .withFinalizers("inventory.kyma-project.io/kyma")
                        .build());
                kyma.setSpec(new KymaSpec());
                kyma.getSpec().setModules(List.of(new Module("istio", null)));
                client.resource(kyma).create();
            }
            int components = 510; // more than one page of 500
            for (int i = 0; i < components; i++) {
                HelmComponent component = new HelmComponent();
                component.setMetadata(new ObjectMetaBuilder()
                        .withName("left-" + i)
                        .withNamespace(NS)
                        .build());
                component.setSpec(new HelmComponentSpec());
                component.getSpec().setModule("istio");
                client.resource(component).create();
            }
            client.resources(Kyma.class).inNamespace(NS).withName("left-0").delete(); // already deleting

            assertThat(Leftovers.sweep(client, NS)).isEqualTo(3 + components);

            assertThat(client.resources(Kyma.class).inNamespace(NS).list().getItems())
                    .isEmpty();
            assertThat(client.resources(HelmComponent.class)
                            .inNamespace(NS)
                            .list()
                            .getItems())
                    .isEmpty();
            assertThat(Leftovers.sweep(client, NS))
                    .as("nothing left the second time")
                    .isZero();
        }
    }
}
