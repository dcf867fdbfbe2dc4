package io.kyma.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class HelmComponentSpec {
    @Size(min = 1, max = Validation.KYMA_NAME_MAX)
    @Pattern(Validation.DNS_SUBDOMAIN)
    @JsonPropertyDescription("Name of the owning Kyma in the same namespace.")
    private String kyma;

    @Required
    @Size(min = 1, max = Validation.MODULE_NAME_MAX)
    @Pattern(Validation.DNS_LABEL)
    @JsonPropertyDescription("The component's module name, a DNS-1123 label of at most 40 characters.")
    private String module;

    @Size(min = 1, max = 64)
    @Pattern(Validation.VERSION)
    private String version;

    public String getKyma() {
        return kyma;
    }

    public void setKyma(String kyma) {
        this.kyma = kyma;
    }

    public String getModule() {
        return module;
    }

    public void setModule(String module) {
        this.module = module;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }
}
