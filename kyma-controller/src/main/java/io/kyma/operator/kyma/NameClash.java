package io.kyma.operator.kyma;

import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;

/** What stands under the name of a component that could not be created because the name is taken. */
public enum NameClash {
    /** Nothing any more: it was deleted meanwhile; try again. */
    GONE,
    /** This Kyma's own component, not yet in the cache: its event is on the way. */
    OURS,
    /** This Kyma's own component without the label the cache selects by (someone removed it): label it again. */
    OURS_UNLABELLED,
    /** Another Kyma's component, or an object nobody manages: the Kyma cannot be installed under this name. */
    FOREIGN;

    public static NameClash classify(Kyma kyma, HelmComponent existing) {
        if (existing == null) {
            return GONE;
        }
        boolean ours = existing.getMetadata().getOwnerReferences() != null
                && existing.getMetadata().getOwnerReferences().stream().anyMatch(o -> ownedBy(o, kyma));
        if (!ours) {
            return FOREIGN;
        }
        Map<String, String> labels = existing.getMetadata().getLabels();
        return labels != null && Labels.MANAGED_BY_VALUE.equals(labels.get(Labels.MANAGED_BY)) ? OURS : OURS_UNLABELLED;
    }

    /** Who holds the name, for the Kyma's status. */
    public static String holder(HelmComponent existing) {
        return existing.getMetadata().getOwnerReferences() == null ? "an object no Kyma owns"
                : existing.getMetadata().getOwnerReferences().stream()
                        .filter(o -> Boolean.TRUE.equals(o.getController()))
                        .map(o -> o.getKind() + " " + o.getName()).findFirst().orElse("an object no Kyma owns");
    }

    private static boolean ownedBy(OwnerReference owner, Kyma kyma) {
        return Objects.equals(owner.getUid(), kyma.getMetadata().getUid()) && Boolean.TRUE.equals(owner.getController());
    }
}
