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
         * Another Kyma (another uid) controls it. If the API server has no Kyma of that name and uid (deleted and
         * perhaps created again, or never there), the controller is gone: the Kyma takes the component over, as long
         * as it is itself the API server's Kyma of its name (not a stale copy). Otherwise it is left alone.
         */
        OTHER_KYMA,
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
        boolean aKyma = kyma.getKind().equals(controller.getKind())
                && controller.getApiVersion() != null
                && controller.getApiVersion().startsWith(Kyma.GROUP + "/");
        return new Ownership(aKyma ? Kind.OTHER_KYMA : Kind.FOREIGN, controller);
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
