package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Validation;

/**
 * The components a Kyma asks for, by module name, and what is wrong with its spec. A duplicated module keeps its
 * first entry; the later entries are reported and get no component.
 */
public record ModulePlan(Map<String, Module> modules, Set<String> duplicates, List<String> problems) {
    /** Label values are limited to 63 characters, and the Kyma's name is one. */
    static final int MAX_KYMA_NAME = Validation.KYMA_NAME_MAX;

    public static ModulePlan of(Kyma kyma) {
        Map<String, Module> modules = new LinkedHashMap<>();
        Set<String> duplicates = new LinkedHashSet<>();
        List<Module> specModules = kyma.getSpec() == null || kyma.getSpec().getModules() == null
                ? List.of()
                : kyma.getSpec().getModules();
        for (Module module : specModules) {
            if (modules.putIfAbsent(module.getName(), module) != null) {
                duplicates.add(module.getName());
            }
        }
        List<String> problems = new ArrayList<>();
        if (!duplicates.isEmpty()) {
            problems.add("duplicate modules: " + String.join(", ", duplicates));
        }
        String name = kyma.getMetadata().getName();
        if (name.length() > MAX_KYMA_NAME) {
            problems.add(
                    "the Kyma's name is longer than " + MAX_KYMA_NAME + " characters and cannot label its components");
            modules.clear();
        }
        return new ModulePlan(modules, duplicates, problems);
    }

    public boolean valid() {
        return problems.isEmpty();
    }

    /** The name of a module's HelmComponent. */
    public static String componentName(Kyma kyma, String module) {
        return kyma.getMetadata().getName() + "-" + module;
    }
}
