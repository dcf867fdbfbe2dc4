package io.kyma.operator.manager;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;

/**
 * Whether the installed CRDs are at least those this version ships: every field of the shipped schema is in the
 * installed one with the same type and at least its enum values, and the status subresource and the version are
 * there. An older CRD would have the API server prune the fields this operator writes (a status it writes again and
 * again, never stored) or refuse a value it writes (a phase the enum does not know), so the manager refuses to start
 * and names what is missing. A CRD that allows more (a newer one) passes. {@code apiVersion}, {@code kind} and
 * {@code metadata} are the API server's, never pruned by a schema, and not compared.
 */
final class InstalledCrds {
    private static final Logger LOG = LoggerFactory.getLogger(InstalledCrds.class);
    private static final Set<String> NOT_COMPARED = Set.of("apiVersion", "kind", "metadata");

    private InstalledCrds() {}

    /**
     * Checks the CRD of each controller's kind that has one in this jar ({@code crds/<group>_<plural>.yaml}).
     *
     * @param fail whether an older CRD stops the start (else it is logged)
     * @throws StaleCrdException naming each CRD and what it lacks, when {@code fail}
     */
    static void require(KubernetesClient client, Operator operator, boolean fail) {
        List<String> problems = new ArrayList<>();
        for (var controller : operator.getRegisteredControllers()) {
            Class<? extends HasMetadata> kind = controller.getConfiguration().getResourceClass();
            Optional<CustomResourceDefinition> shipped = shipped(kind);
            if (shipped.isEmpty()) {
                continue;
            }
            String name = shipped.get().getMetadata().getName();
            CustomResourceDefinition installed;
            try {
                installed = client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get();
            } catch (KubernetesClientException e) {
                // an older role without the rule: the check is skipped, not the start
                LOG.warn("Cannot read the CRD {} to check that it is current ({}); grant get on it", name, e.getCode());
                continue;
            }
            if (installed != null) {
                lacks(shipped.get(), installed, HasMetadata.getVersion(kind))
                        .ifPresent(what -> problems.add(name + " lacks " + what));
            }
        }
        if (!problems.isEmpty()) {
            StaleCrdException stale = new StaleCrdException(problems);
            if (fail) {
                throw stale;
            }
            LOG.warn("Starting anyway (--crd-check=warn): {}", stale.getMessage());
        }
    }

    /** What {@code installed} lacks of {@code shipped} in {@code version}: a phrase, or empty when nothing. */
    static Optional<String> lacks(
            CustomResourceDefinition shipped, CustomResourceDefinition installed, String version) {
        Optional<CustomResourceDefinitionVersion> want = version(shipped, version);
        Optional<CustomResourceDefinitionVersion> have = version(installed, version);
        if (want.isEmpty()) {
            return Optional.empty();
        }
        if (have.isEmpty() || !Boolean.TRUE.equals(have.get().getServed())) {
            return Optional.of("the served version " + version);
        }
        List<String> lacking = new ArrayList<>();
        if (want.get().getSubresources() != null
                && want.get().getSubresources().getStatus() != null
                && (have.get().getSubresources() == null
                        || have.get().getSubresources().getStatus() == null)) {
            lacking.add("the status subresource");
        }
        Fields wanted = Fields.of(want.get().getSchema().getOpenAPIV3Schema());
        Fields installedFields = Fields.of(have.get().getSchema().getOpenAPIV3Schema());
        List<String> missing = new ArrayList<>();
        List<String> different = new ArrayList<>();
        wanted.declared().forEach((path, schema) -> {
            JSONSchemaProps theirs = installedFields.declared().get(path);
            if (theirs == null) {
                if (!installedFields.keeps(path)) {
                    missing.add(path);
                }
                return;
            }
            if (schema.getType() != null
                    && theirs.getType() != null
                    && !schema.getType().equals(theirs.getType())) {
                different.add(path + " (type " + theirs.getType() + ", not " + schema.getType() + ")");
            }
            if (schema.getEnum() != null && theirs.getEnum() != null) {
                List<String> values = schema.getEnum().stream()
                        .map(v -> v.isTextual() ? v.asText() : v.toString())
                        .filter(v -> theirs.getEnum().stream()
                                .noneMatch(t -> (t.isTextual() ? t.asText() : t.toString()).equals(v)))
                        .toList();
                if (!values.isEmpty()) {
                    different.add(path + " (the enum values " + String.join(", ", values) + ")");
                }
            }
        });
        if (!missing.isEmpty()) {
            lacking.add("the fields " + String.join(", ", missing));
        }
        if (!different.isEmpty()) {
            lacking.add(String.join(", ", different));
        }
        return lacking.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", lacking));
    }

    /**
     * Every field of a schema by its path ({@code spec.modules[].name}), but {@code apiVersion}, {@code kind} and
     * {@code metadata}, and the paths where it keeps unknown fields.
     */
    record Fields(Map<String, JSONSchemaProps> declared, Set<String> open) {
        static Fields of(JSONSchemaProps schema) {
            Fields fields = new Fields(new TreeMap<>(), new TreeSet<>());
            fields.collect(schema, "");
            return fields;
        }

        /** Whether the schema keeps {@code path} though it does not declare it: an enclosing object keeps anything. */
        boolean keeps(String path) {
            return open.stream()
                    .anyMatch(o -> o.isEmpty()
                            || path.startsWith(o + ".")
                            || path.startsWith(o + "[]")
                            || path.startsWith(o + "{}")
                            || (o.endsWith("{}") && path.startsWith(o.substring(0, o.length() - 2) + ".")));
        }

        private void collect(JSONSchemaProps schema, String prefix) {
            if (schema == null) {
                return;
            }
            if (Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields())) {
                open.add(prefix);
            }
            if (schema.getProperties() != null) {
                for (Map.Entry<String, JSONSchemaProps> property :
                        schema.getProperties().entrySet()) {
                    if (prefix.isEmpty() && NOT_COMPARED.contains(property.getKey())) {
                        continue;
                    }
                    String path = prefix.isEmpty() ? property.getKey() : prefix + "." + property.getKey();
                    declared.put(path, property.getValue());
                    collect(property.getValue(), path);
                }
            }
            if (schema.getItems() != null) {
                collect(schema.getItems().getSchema(), prefix + "[]");
            }
            if (schema.getAdditionalProperties() != null) {
                collect(schema.getAdditionalProperties().getSchema(), prefix + "{}");
            }
        }
    }

    private static Optional<CustomResourceDefinitionVersion> version(CustomResourceDefinition crd, String version) {
        return crd.getSpec().getVersions().stream()
                .filter(v -> v.getName().equals(version))
                .findFirst();
    }

    /** The CRD this jar ships for {@code kind}, if any. */
    static Optional<CustomResourceDefinition> shipped(Class<? extends HasMetadata> kind) {
        String file = "/crds/" + HasMetadata.getGroup(kind) + "_" + HasMetadata.getPlural(kind) + ".yaml";
        try (InputStream in = InstalledCrds.class.getResourceAsStream(file)) {
            return in == null
                    ? Optional.empty()
                    : Optional.of(Serialization.unmarshal(in, CustomResourceDefinition.class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Thrown when an installed CRD is older than this operator's. */
    static final class StaleCrdException extends IllegalStateException {
        StaleCrdException(List<String> problems) {
            super("the installed CRDs are older than this operator: " + String.join("; ", problems)
                    + " (apply the CRDs of this version first: `make install`, or dist/install.yaml)");
        }
    }
}
