package io.kyma.operator.kyma;

import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;

/**
 * The HelmComponent a Kyma's module should have: the one place that says which fields of a component the operator
 * owns. Those are its spec, the labels {@link #labels} sets and the controller ownerReference; everything else on a
 * component (other labels, annotations, other owners, finalizers) belongs to whoever put it there.
 */
final class ChildComponents {
    private ChildComponents() {}

    static HelmComponent desired(Kyma kyma, Module module) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(ModulePlan.componentName(kyma, module.getName()))
                .withNamespace(kyma.getMetadata().getNamespace())
                .withLabels(labels(kyma, module))
                .withOwnerReferences(controllerReference(kyma))
                .build());
        HelmComponentSpec spec = new HelmComponentSpec();
        spec.setKyma(kyma.getMetadata().getName());
        spec.setModule(module.getName());
        spec.setVersion(module.getVersion());
        component.setSpec(spec);
        return component;
    }

    /**
     * The reference by which a Kyma controls its components. Without {@code blockOwnerDeletion}: the Kyma's finalizer
     * deletes its components, not the garbage collector, and setting it needs a right on {@code kymas/finalizers}
     * wherever the API server enforces owner-reference permissions.
     */
    static OwnerReference controllerReference(Kyma kyma) {
        return new OwnerReferenceBuilder()
                .withApiVersion(kyma.getApiVersion())
                .withKind(kyma.getKind())
                .withName(kyma.getMetadata().getName())
                .withUid(kyma.getMetadata().getUid())
                .withController(true)
                .build();
    }

    /**
     * Ours, whose Kyma and module, and the Kyma's shard: a component is reconciled by the replica of its Kyma. An
     * unsharded Kyma sets no shard label, and leaves one on its component alone.
     */
    private static Map<String, String> labels(Kyma kyma, Module module) {
        Map<String, String> labels = new HashMap<>(Map.of(
                Labels.MANAGED_BY,
                Labels.MANAGED_BY_VALUE,
                Labels.KYMA,
                kyma.getMetadata().getName(),
                Labels.MODULE,
                module.getName()));
        String shard = kyma.getMetadata().getLabels() == null
                ? null
                : kyma.getMetadata().getLabels().get(Labels.SHARD);
        if (shard != null) {
            labels.put(Labels.SHARD, shard);
        }
        return labels;
    }
}
