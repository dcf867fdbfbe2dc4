package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;

/**
 * What the Kyma controller does to bring a Kyma's components to its plan, decided from what its cache holds: create
 * the missing ones, set the version (and module) of those whose spec differs, delete those no module asks for any
 * more. Components are matched by name, the one thing a component cannot change about itself.
 *
 * @param specChanges components whose spec must become the given module's
 */
public record ComponentActions(
        List<HelmComponent> create, Map<HelmComponent, Module> specChanges, List<HelmComponent> delete) {

    public static ComponentActions decide(Kyma kyma, ModulePlan plan, Collection<HelmComponent> owned) {
        Map<String, HelmComponent> byName = new HashMap<>();
        owned.forEach(component -> byName.put(component.getMetadata().getName(), component));
        List<HelmComponent> create = new ArrayList<>();
        Map<HelmComponent, Module> specChanges = new HashMap<>();
        for (Module module : plan.modules().values()) {
            HelmComponent current = byName.remove(ModulePlan.componentName(kyma, module.getName()));
            if (current == null) {
                create.add(ChildComponents.desired(kyma, module));
            } else if (current.getMetadata().getDeletionTimestamp() == null
                    && (current.getSpec() == null
                            || !Objects.equals(current.getSpec().getVersion(), module.getVersion())
                            || !Objects.equals(current.getSpec().getModule(), module.getName()))) {
                specChanges.put(current, module);
            }
        }
        List<HelmComponent> delete = byName.values().stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .toList();
        return new ComponentActions(create, specChanges, delete);
    }
}
