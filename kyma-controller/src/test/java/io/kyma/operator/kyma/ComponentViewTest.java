package io.kyma.operator.kyma;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;

import static org.assertj.core.api.Assertions.assertThat;

class ComponentViewTest {

    @Test
    void keepsWhatTheKymaControllerReads() {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder().withName("k").withNamespace("ns").withUid("kyma-uid").build());
        kyma.setSpec(new KymaSpec());
        HelmComponent full = ChildComponents.desired(kyma, new Module("istio", "1.2.3"));
        full.getMetadata().setResourceVersion("42");
        full.getMetadata().setUid("component-uid");
        full.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        full.setStatus(new HelmComponentStatus());
        full.getStatus().setState(ComponentState.RETRYING);
        full.getStatus().setMessage("a long message the summary never reads");

        HelmComponent view = ComponentView.of(full);

        assertThat(view.getMetadata().getName()).isEqualTo(full.getMetadata().getName());
        assertThat(view.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(view.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(view.getMetadata().getDeletionTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(view.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("kyma-uid"));
        assertThat(view.getSpec().getModule()).isEqualTo("istio");
        assertThat(view.getSpec().getVersion()).isEqualTo("1.2.3");
        assertThat(view.getStatus().getState()).isEqualTo(ComponentState.RETRYING);

        assertThat(view.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(view.getMetadata().getUid()).isNull();
        assertThat(view.getStatus().getMessage()).isNull();
    }

    @Test
    void aComponentWithoutStatusHasNoneInItsView() {
        HelmComponent full = new HelmComponent();
        full.setMetadata(new ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        full.setSpec(new HelmComponentSpec());

        assertThat(ComponentView.of(full).getStatus()).isNull();
    }
}
