package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;

/**
 * Where a component differs from what its Kyma wants in the fields the operator owns ({@link ChildComponents}), and
 * the write that sets those back and nothing else.
 */
final class ChildDrift {
    private ChildDrift() {}

    /**
     * What to send: the operator's labels (merged with the others), the whole spec, and the ownerReferences only when
     * the controller reference must change, then as the whole list, which JSON merge patch cannot do otherwise.
     *
     * @param resourceVersion the version the write is based on: a component changed since is not overwritten
     * @param owners the new ownerReferences, or null to leave them
     */
    record Restore(
            String resourceVersion, Map<String, String> labels, HelmComponentSpec spec, List<OwnerReference> owners) {}

    static boolean differs(HelmComponent existing, HelmComponent desired) {
        return specDiffers(existing, desired) || labelsDiffer(existing, desired) || ownerDiffers(existing, desired);
    }

    static boolean specDiffers(HelmComponent existing, HelmComponent desired) {
        HelmComponentSpec is = existing.getSpec();
        HelmComponentSpec want = desired.getSpec();
        return is == null
                || !Objects.equals(is.getKyma(), want.getKyma())
                || !Objects.equals(is.getModule(), want.getModule())
                || !Objects.equals(is.getVersion(), want.getVersion());
    }

    static boolean labelsDiffer(HelmComponent existing, HelmComponent desired) {
        Map<String, String> labels = existing.getMetadata().getLabels();
        return desired.getMetadata().getLabels().entrySet().stream()
                .anyMatch(e -> labels == null || !e.getValue().equals(labels.get(e.getKey())));
    }

    /**
     * Whether the controller reference is not the desired one (its blockOwnerDeletion is not the operator's), or the
     * Kyma has a second, plain one.
     */
    static boolean ownerDiffers(HelmComponent existing, HelmComponent desired) {
        OwnerReference wanted = wanted(desired);
        List<OwnerReference> owners = existing.getMetadata().getOwnerReferences();
        return !same(Ownership.controller(existing), wanted)
                || owners.stream()
                                .filter(o -> Objects.equals(o.getUid(), wanted.getUid()))
                                .count()
                        > 1;
    }

    /** The write that makes {@code existing} what {@code desired} says in the operator's fields. */
    static Restore restore(HelmComponent existing, HelmComponent desired) {
        return new Restore(
                existing.getMetadata().getResourceVersion(),
                desired.getMetadata().getLabels(),
                desired.getSpec(),
                ownerDiffers(existing, desired)
                        ? owners(existing.getMetadata().getOwnerReferences(), wanted(desired))
                        : null);
    }

    /**
     * {@code current} with {@code controller} as its one controller reference, in the place of the old controller
     * reference or of a plain reference to the same owner, else last; every other reference kept as it was.
     */
    static List<OwnerReference> owners(List<OwnerReference> current, OwnerReference controller) {
        List<OwnerReference> owners = new ArrayList<>();
        int at = -1;
        for (OwnerReference o : current == null ? List.<OwnerReference>of() : current) {
            if (Boolean.TRUE.equals(o.getController()) || Objects.equals(o.getUid(), controller.getUid())) {
                at = at < 0 ? owners.size() : at;
            } else {
                owners.add(o);
            }
        }
        owners.add(at < 0 ? owners.size() : at, controller);
        return owners;
    }

    private static OwnerReference wanted(HelmComponent desired) {
        return desired.getMetadata().getOwnerReferences().get(0);
    }

    private static boolean same(OwnerReference a, OwnerReference b) {
        return a != null
                && Objects.equals(a.getApiVersion(), b.getApiVersion())
                && Objects.equals(a.getKind(), b.getKind())
                && Objects.equals(a.getName(), b.getName())
                && Objects.equals(a.getUid(), b.getUid())
                && Objects.equals(a.getController(), b.getController());
    }
}
