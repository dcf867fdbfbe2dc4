package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;

/**
 * Before anything starts, the manager checks that the API server serves what it needs, and that the installed CRDs
 * are not older than the ones it ships, and names what is missing.
 */
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

    @Group("stale.example.com")
    @Version("v1")
    public static class Widget extends CustomResource<Map<String, Object>, Map<String, Object>> implements Namespaced {}

    @ControllerConfiguration(name = "widgets")
    public static class WidgetReconciler implements Reconciler<Widget> {
        @Override
        public UpdateControl<Widget> reconcile(Widget resource, Context<Widget> context) {
            return UpdateControl.noUpdate();
        }
    }

    @Test
    void anInstalledCrdOlderThanTheShippedOneIsNamedWithWhatItLacksAndNothingStarts() throws Exception {
        CustomResourceDefinition older = InstalledCrds.shipped(Widget.class).orElseThrow();
        older.getSpec()
                .getVersions()
                .get(0)
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status")
                .getProperties()
                .remove("observedGeneration");
        try (KubernetesClient admin = EmbeddedControlPlane.get().newClient()) {
            admin.resource(older).forceConflicts().serverSideApply();
            admin.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(older.getMetadata().getName())
                    .waitUntilCondition(Crds::established, HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);
        }
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
                ControllerSpec.plain(List.of(new WidgetReconciler()), 100),
                false)) {
            assertThatThrownBy(manager::start)
                    .isInstanceOf(InstalledCrds.StaleCrdException.class)
                    .hasMessageContaining("widgets.stale.example.com lacks the fields status.observedGeneration")
                    .hasMessageContaining("make install");
            assertThat(manager.operator().getRuntimeInfo().isStarted()).isFalse();
        }
    }

    @Test
    void theInstalledCrdsOfThisVersionAreCurrent() {
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            Crds.install(client);
            for (Class<? extends HasMetadata> kind : List.of(Kyma.class, HelmComponent.class, Run.class)) {
                CustomResourceDefinition installed = client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(HasMetadata.getFullResourceName(kind))
                        .get();
                assertThat(InstalledCrds.lacks(
                                InstalledCrds.shipped(kind).orElseThrow(), installed, HasMetadata.getVersion(kind)))
                        .as(kind.getSimpleName())
                        .isEmpty();
            }
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
