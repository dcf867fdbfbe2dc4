package io.kyma.operator.kyma;

import java.util.List;
import java.util.stream.Collectors;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kyma.operator.api.HelmComponent;

/**
 * What a Kyma's deletion waits for, in words for its status: the components it still controls, and the finalizers of
 * others that hold those already being deleted. The HelmComponent controller's own finalizer is progress, not a hold:
 * that controller reports on the component itself.
 */
final class DeletionHold {
    /** The finalizer the HelmComponent controller puts on its components. */
    static final String OWN_FINALIZER =
            HasMetadata.getPlural(HelmComponent.class) + "." + HasMetadata.getGroup(HelmComponent.class) + "/finalizer";
    /** How many components a message names at most. */
    static final int NAMED = 3;

    private DeletionHold() {}

    /** @param remaining the components the Kyma controls that still exist; not empty */
    static KymaStatusSummary.Problem of(List<HelmComponent> remaining) {
        List<String> held = remaining.stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() != null)
                .map(DeletionHold::held)
                .filter(s -> !s.isEmpty())
                .toList();
        if (!held.isEmpty()) {
            return new KymaStatusSummary.Problem(
                    KymaStatusSummary.REASON_FINALIZERS, "waiting for " + named(held, held.size()));
        }
        List<String> names =
                remaining.stream().map(c -> "HelmComponent " + key(c)).sorted().toList();
        return new KymaStatusSummary.Problem(
                KymaStatusSummary.REASON_DELETING,
                "deleting " + remaining.size() + (remaining.size() == 1 ? " component: " : " components: ")
                        + named(names, names.size()));
    }

    /** "HelmComponent ns/x: finalizer a" for a component others' finalizers hold, else "". */
    static String held(HelmComponent component) {
        List<String> others = component.getMetadata().getFinalizers() == null
                ? List.of()
                : component.getMetadata().getFinalizers().stream()
                        .filter(f -> !OWN_FINALIZER.equals(f))
                        .distinct()
                        .toList();
        if (others.isEmpty()) {
            return "";
        }
        return "HelmComponent " + key(component) + ": finalizer" + (others.size() == 1 ? " " : "s ")
                + String.join(", ", others);
    }

    private static String named(List<String> items, int total) {
        String shown = items.stream().limit(NAMED).collect(Collectors.joining("; "));
        return total > NAMED ? shown + "; and " + (total - NAMED) + " more" : shown;
    }

    private static String key(HelmComponent component) {
        return component.getMetadata().getNamespace() + "/"
                + component.getMetadata().getName();
    }
}
