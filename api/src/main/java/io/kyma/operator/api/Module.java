package io.kyma.operator.api;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One module of a Kyma. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Module {
    @Required
    @Size(min = 1, max = Validation.MODULE_NAME_MAX)
    @Pattern(Validation.DNS_LABEL)
    @JsonPropertyDescription("The module's name, a DNS-1123 label of at most 40 characters.")
    private String name;

    @Size(min = 1, max = 64)
    @Pattern(Validation.VERSION)
    @JsonPropertyDescription("The module's version; the operator's default applies when empty.")
    private String version;

    public Module() {}

    public Module(String name, String version) {
        this.name = name;
        this.version = version;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Module other && Objects.equals(name, other.name) && Objects.equals(version, other.version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, version);
    }

    @Override
    public String toString() {
        return version == null ? name : name + "@" + version;
    }
}
