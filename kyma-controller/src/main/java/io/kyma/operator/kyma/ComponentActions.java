package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;

/**
 * What a Kyma's components should be, against what stands under their names, and which components it controls that
 * no module asks for any more. Components are matched by name, the one thing a component cannot change about itself.
 *
 * @param children each planned component, desired and as it stands (null if absent)
 * @param delete components the Kyma controls (by uid) that its plan does not name, not yet being deleted
 * @param leaving every component the Kyma controls (by uid) that its plan does not name, being deleted or not: while
 *     one stays, the Kyma has not reached its desired state
 */
public record ComponentActions(List<Child> children, List<HelmComponent> delete, List<HelmComponent> leaving) {
    /** A planned component: what it should be, and what stands under its name, whoever controls it, or null. */
    public record Child(HelmComponent desired, HelmComponent existing) {}

    /**
     * @param named what stands under a component name, for a name none of {@code controlled} has
     * @param controlled the components whose controller reference names the Kyma (the uid is checked here)
     */
    public static ComponentActions decide(
            Kyma kyma, ModulePlan plan, Function<String, HelmComponent> named, Collection<HelmComponent> controlled) {
        Map<String, HelmComponent> byName = new HashMap<>();
        controlled.forEach(c -> byName.put(c.getMetadata().getName(), c));
        List<Child> children = new ArrayList<>();
        Set<String> planned = new HashSet<>();
        for (Module module : plan.modules().values()) {
            String name = ModulePlan.componentName(kyma, module.getName());
            planned.add(name);
            HelmComponent existing = byName.get(name);
            children.add(
                    new Child(ChildComponents.desired(kyma, module), existing != null ? existing : named.apply(name)));
        }
        String uid = kyma.getMetadata().getUid();
        List<HelmComponent> leaving = controlled.stream()
                .filter(c -> !planned.contains(c.getMetadata().getName()))
                .filter(c -> Ownership.controlledBy(c, uid))
                .toList();
        List<HelmComponent> delete = leaving.stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .toList();
        return new ComponentActions(children, delete, leaving);
    }

    /** The planned components that exist and that the Kyma controls: those its status counts. */
    public List<HelmComponent> mine(Kyma kyma) {
        String uid = kyma.getMetadata().getUid();
        return children.stream()
                .map(Child::existing)
                .filter(c -> c != null && Ownership.controlledBy(c, uid))
                .toList();
    }
}
