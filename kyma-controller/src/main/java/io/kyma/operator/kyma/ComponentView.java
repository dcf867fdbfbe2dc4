package io.kyma.operator.kyma;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;

/**
 * What the Kyma controller reads of a HelmComponent: enough to find its owner, compare its module and version, count
 * its state (and whether that state is about its current spec) and delete it. Its informer holds one of these per component instead of the whole object, which the
 * HelmComponent controller's informer already holds.
 */
final class ComponentView {
    private ComponentView() {
    }

    static HelmComponent of(HelmComponent component) {
        ObjectMeta source = component.getMetadata();
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(source.getName());
        metadata.setNamespace(source.getNamespace());
        metadata.setResourceVersion(source.getResourceVersion());
        metadata.setGeneration(source.getGeneration());
        metadata.setOwnerReferences(source.getOwnerReferences());
        metadata.setDeletionTimestamp(source.getDeletionTimestamp());
        HelmComponent view = new HelmComponent();
        view.setMetadata(metadata);
        if (component.getSpec() != null) {
            view.setSpec(new HelmComponentSpec());
            // a few dozen distinct values over thousands of components
            view.getSpec().setKyma(intern(component.getSpec().getKyma()));
            view.getSpec().setModule(intern(component.getSpec().getModule()));
            view.getSpec().setVersion(intern(component.getSpec().getVersion()));
        }
        if (component.getStatus() != null && component.getStatus().getState() != null) {
            view.setStatus(new HelmComponentStatus());
            view.getStatus().setState(component.getStatus().getState());
            view.getStatus().setObservedGeneration(component.getStatus().getObservedGeneration());
        }
        return view;
    }

    private static String intern(String value) {
        return value == null ? null : value.intern();
    }
}
