package io.kyma.operator.kyma;

import java.util.List;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.kyma.operator.api.Kyma;

/**
 * Who controls a component, as a Kyma sees it. Only the {@code controller: true} ownerReference counts, as for the
 * garbage collector and controller-runtime; any other reference is the business of whoever added it.
 *
 * @param controller the component's controller reference, or null
 */
record Ownership(Kind kind, OwnerReference controller) {
    enum Kind {
        /** The Kyma's own: its controller reference carries the Kyma's uid. */
        MINE,
        /** No one controls it: the Kyma takes it over, as a ReplicaSet adopts a matching orphan. */
        ADOPTABLE,
        /**
         * A Kyma of the same name and another uid controls it. A name is unique in a namespace, so if the API server's
         * Kyma of that name is this one, the controller is gone (deleted and created again) and the Kyma takes the
         * component over; otherwise this copy is the stale one, and the component is left alone.
         */
        PREDECESSOR,
        /** Another live object controls it: the Kyma neither changes nor deletes it. */
        FOREIGN
    }

    static Ownership of(Kyma kyma, HasMetadata component) {
        OwnerReference controller = controller(component);
        if (controller == null) {
            return new Ownership(Kind.ADOPTABLE, null);
        }
        if (Objects.equals(controller.getUid(), kyma.getMetadata().getUid())) {
            return new Ownership(Kind.MINE, controller);
        }
        boolean sameName = kyma.getKind().equals(controller.getKind())
                && controller.getApiVersion() != null
                && controller.getApiVersion().startsWith(Kyma.GROUP + "/")
                && kyma.getMetadata().getName().equals(controller.getName());
        return new Ownership(sameName ? Kind.PREDECESSOR : Kind.FOREIGN, controller);
    }

    /** The controller reference of {@code object}, or null. */
    static OwnerReference controller(HasMetadata object) {
        List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
        if (owners == null) {
            return null;
        }
        return owners.stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .findFirst()
                .orElse(null);
    }

    /** Whether {@code object}'s controller reference carries {@code uid}. */
    static boolean controlledBy(HasMetadata object, String uid) {
        OwnerReference controller = controller(object);
        return controller != null && Objects.equals(controller.getUid(), uid);
    }

    /** The holder, as the Kyma's status names it. */
    String holder() {
        return controller == null
                ? "no controller"
                : controller.getKind() + " " + controller.getName() + " (uid " + controller.getUid() + ")";
    }
}
