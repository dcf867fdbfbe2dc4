package io.kyma.operator.kyma;

import java.util.List;
import java.util.Optional;

import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.common.cache.LeanCache;

/**
 * What holds a component the Kyma wants gone, in words for its status: the component and every finalizer on it. No
 * controller of this operator puts a finalizer on a component (the HelmComponent controller has no cleanup), so each
 * one is someone else's, and a component being deleted that still carries one is held until they take it off. At most
 * {@link KymaStatusSummary#NAMED} components and {@link LeanCache#NAMED_FINALIZERS} finalizers of each are named, then how many more:
 * those the informer cache keeps by name even of a long list.
 */
final class DeletionHold {
    private DeletionHold() {}

    /** @param remaining the components the Kyma controls that still exist; not empty */
    static KymaStatusSummary.Problem of(List<HelmComponent> remaining) {
        List<HelmComponent> beingDeleted = remaining.stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() != null)
                .toList();
        return held(beingDeleted, "waiting for ").orElseGet(() -> {
            List<String> names = remaining.stream()
                    .map(c -> "HelmComponent " + key(c))
                    .sorted()
                    .toList();
            return new KymaStatusSummary.Problem(
                    KymaStatusSummary.REASON_DELETING,
                    "deleting " + remaining.size()
                            + (remaining.size() == 1 ? " component: " : " components: ")
                            + KymaStatusSummary.named(names));
        });
    }

    /**
     * The hold on components of modules the Kyma no longer asks for, which keeps it from Ready while they stay: a
     * finalizer holds one being deleted, and one being deleted now alike (its delete leaves it in place).
     *
     * @param leaving the components the Kyma controls and no module asks for
     */
    static Optional<KymaStatusSummary.Problem> ofRemoved(List<HelmComponent> leaving) {
        return held(leaving, "held in deletion, of modules no longer in spec.modules: ")
                .map(p -> new KymaStatusSummary.Problem(p.reason(), p.message(), true));
    }

    private static Optional<KymaStatusSummary.Problem> held(List<HelmComponent> components, String lead) {
        List<String> held = components.stream()
                .map(DeletionHold::held)
                .filter(s -> !s.isEmpty())
                .sorted()
                .toList();
        return held.isEmpty()
                ? Optional.empty()
                : Optional.of(new KymaStatusSummary.Problem(
                        KymaStatusSummary.REASON_FINALIZERS, lead + KymaStatusSummary.named(held)));
    }

    /**
     * "HelmComponent ns/x: finalizers a, b, c and 2 more" for a component finalizers hold, else "". Only the first
     * {@link LeanCache#NAMED_FINALIZERS} entries are read: a cached copy keeps those by name, however long its list.
     */
    static String held(HelmComponent component) {
        List<String> all = component.getMetadata().getFinalizers();
        if (all == null || all.isEmpty()) {
            return "";
        }
        List<String> shown = all.subList(0, Math.min(all.size(), LeanCache.NAMED_FINALIZERS));
        int more = all.size() - shown.size();
        return "HelmComponent " + key(component) + ": finalizer" + (all.size() == 1 ? " " : "s ")
                + String.join(", ", shown) + (more > 0 ? " and " + more + " more" : "");
    }

    private static String key(HelmComponent component) {
        return component.getMetadata().getNamespace() + "/"
                + component.getMetadata().getName();
    }
}
