package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

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
        return !fields(existing, desired).isEmpty();
    }

    /** The longest value a field's description quotes, in characters. */
    private static final int QUOTED = 64;

    /**
     * The operator's fields in which {@code existing} differs from {@code desired}, each with the value it has and the
     * one wanted, in words for a status: {@code spec.version "latest" (wanted none)}.
     */
    static List<String> fields(HelmComponent existing, HelmComponent desired) {
        List<String> fields = new ArrayList<>();
        HelmComponentSpec is = existing.getSpec() == null ? new HelmComponentSpec() : existing.getSpec();
        HelmComponentSpec want = desired.getSpec();
        compare(fields, "spec.kyma", is.getKyma(), want.getKyma());
        compare(fields, "spec.module", is.getModule(), want.getModule());
        compare(fields, "spec.version", is.getVersion(), want.getVersion());
        Map<String, String> labels = existing.getMetadata().getLabels();
        new TreeMap<>(desired.getMetadata().getLabels())
                .forEach((key, value) ->
                        compare(fields, "label " + key, labels == null ? null : labels.get(key), value));
        if (ownerDiffers(existing, desired)) {
            OwnerReference controller = Ownership.controller(existing);
            fields.add("the controller ownerReference ("
                    + (controller == null
                            ? "none"
                            : controller.getKind() + " " + controller.getName() + " uid " + controller.getUid())
                    + ", wanted Kyma " + wanted(desired).getName() + " uid "
                    + wanted(desired).getUid() + ")");
        }
        return fields;
    }

    private static void compare(List<String> fields, String field, String is, String want) {
        if (!Objects.equals(is, want)) {
            fields.add(field + " " + quoted(is) + " (wanted " + quoted(want) + ")");
        }
    }

    private static String quoted(String value) {
        if (value == null) {
            return "none";
        }
        return "\"" + (value.length() > QUOTED ? value.substring(0, QUOTED) + "..." : value) + "\"";
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
