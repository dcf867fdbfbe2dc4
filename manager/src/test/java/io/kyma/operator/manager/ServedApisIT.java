package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;

/** Before anything starts, the manager checks that the API server serves what it needs, and names what is missing. */
class ServedApisIT {
    @Group("absent.example.com")
    @Version("v1")
    public static class Absent extends CustomResource<Void, Void> implements Namespaced {}

    @ControllerConfiguration(name = "absent")
    public static class AbsentReconciler implements Reconciler<Absent> {
        @Override
        public UpdateControl<Absent> reconcile(Absent resource, Context<Absent> context) {
            return UpdateControl.noUpdate();
        }
    }

    @Test
    void aKindWithoutItsCrdIsNamedAndNothingStarts() {
        ManagerConfig config = ManagerConfig.parse(
                new String[] {
                    "--namespace", "served-apis", "--metrics-bind-address", "0", "--health-probe-bind-address", "0"
                },
                Map.of());
        try (KymaOperator manager = new KymaOperator(
                config,
                EmbeddedControlPlane.get().config(),
                Clock.systemUTC(),
                List.of(),
                ControllerSpec.plain(List.of(new AbsentReconciler()), 100),
                false)) {
            assertThatThrownBy(manager::start)
                    .isInstanceOf(ServedApis.MissingApiException.class)
                    .hasMessageContaining("absents (absent.example.com/v1, its controller's kind)")
                    .hasMessageNotContaining("events");
            assertThat(manager.operator().getRuntimeInfo().isStarted()).isFalse();
        }
    }

    @Test
    void whatTheApiServerServesIsNotMissing() {
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            Crds.install(client);
            assertThat(ServedApis.missing(
                            client,
                            List.of(
                                    ServedApis.of(Kyma.class, "kind"),
                                    ServedApis.of(io.fabric8.kubernetes.api.model.Event.class, "events"),
                                    ServedApis.of(
                                            io.fabric8.kubernetes.api.model.coordination.v1.Lease.class, "leases"))))
                    .isEmpty();
        }
    }
}
