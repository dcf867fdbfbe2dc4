package io.kyma.operator.api;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

public class KymaSpec {
    public static final int MAX_MODULES = 100;

    @Required
    @Size(min = 1, max = MAX_MODULES)
    @JsonPropertyDescription("The modules to install; each becomes one HelmComponent named <kyma>-<module>.")
    private List<Module> modules = new ArrayList<>();

    public List<Module> getModules() {
        return modules;
    }

    public void setModules(List<Module> modules) {
        this.modules = modules;
    }
}
