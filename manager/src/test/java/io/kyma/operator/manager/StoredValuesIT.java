package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.HangCatcher;
import io.kyma.operator.testing.Namespaces;

/**
 * The embedded control plane stores what an upstream API server stores: every value a custom resource's schema allows,
 * the empty string and the other zero values among them, written to spec or status by merge patch, server-side apply or
 * update, reads back exactly. (A kube-apiserver v1.20 built with Go 1.16 or later took each "" for null and refused it.)
 */
class StoredValuesIT {
    private static final String API_VERSION = "fidelity.example.com/v1";
    private static final String KIND = "Sample";
    private static final String NAMESPACE = "stored-values";
    private static final String FIELD_MANAGER = "stored-values-it";
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: samples.fidelity.example.com}
            spec:
              group: fidelity.example.com
              scope: Namespaced
              names: {kind: Sample, plural: samples, singular: sample, listKind: SampleList}
              versions:
              - name: v1
                served: true
                storage: true
                subresources: {status: {}}
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec: &fields
                        type: object
                        properties:
                          text: {type: string}
                          count: {type: integer}
                          enabled: {type: boolean}
                      status: *fields
            """;

    private enum Writer {
        MERGE_PATCH,
        SERVER_SIDE_APPLY,
        UPDATE
    }

    @Test
    void everyAllowedValueReadsBackExactlyWhicheverWayItIsWritten() {
        try (KubernetesClient client = EmbeddedControlPlane.get().newClient()) {
            installCrd(client);
            Namespaces.apply(client, NAMESPACE);
            List<Map.Entry<String, Object>> values = values();
            List<String> mismatches = new ArrayList<>();
            for (Writer writer : Writer.values()) {
                String name = writer.name().toLowerCase().replace('_', '-');
                Resource<GenericKubernetesResource> object = client.genericKubernetesResources(API_VERSION, KIND)
                        .inNamespace(NAMESPACE)
                        .withName(name);
                object.delete();
                object.waitUntilCondition(o -> o == null, 30, TimeUnit.SECONDS);
                client.resource(sample(name, "spec", Map.of("text", "created"))).create();
                for (String part : List.of("spec", "status")) {
                    for (Map.Entry<String, Object> field : values) {
                        try {
                            write(client, writer, name, part, field.getKey(), field.getValue());
                        } catch (KubernetesClientException e) {
                            mismatches.add("%s of %s.%s: wrote %s, refused: %s"
                                    .formatted(writer, part, field.getKey(), show(field.getValue()), e.getMessage()));
                            continue;
                        }
                        Object stored = part(object.get(), part).get(field.getKey());
                        if (!field.getValue().equals(stored)) {
                            mismatches.add("%s of %s.%s: wrote %s, read %s"
                                    .formatted(writer, part, field.getKey(), show(field.getValue()), show(stored)));
                        }
                    }
                }
            }
            assertThat(mismatches).isEmpty();
        }
    }

    /**
     * The values written, field by field, each different from the one before it: the zero value of each type, strings
     * that a parser could take for something else, unicode from several planes, generated ones, and a long one.
     */
    private static List<Map.Entry<String, Object>> values() {
        List<Map.Entry<String, Object>> values = new ArrayList<>();
        List<Object> strings = new ArrayList<>(List.of(
                "",
                " ",
                "\t\n\r",
                "  padded  ",
                "null",
                "0",
                "false",
                "~",
                "\"quoted\" and \\backslashed\\",
                "</script>&amp;<",
                "# not a comment",
                "Grüße, 世界, עברית, 🚀"));
        Random random = new Random(55);
        for (int i = 0; i < 8; i++) {
            strings.add(generated(random, 1 + random.nextInt(40)));
        }
        strings.add(generated(random, 100_000));
        strings.add("");
        for (Object text : strings) {
            values.add(Map.entry("text", text));
        }
        for (Object count : List.of(0, 1, -1, 0)) {
            values.add(Map.entry("count", count));
        }
        for (Object enabled : List.of(false, true, false)) {
            values.add(Map.entry("enabled", enabled));
        }
        return values;
    }

    /** Printable characters of every plane: ASCII, letters and symbols of any script, and some outside the BMP. */
    private static String generated(Random random, int length) {
        StringBuilder text = new StringBuilder();
        while (text.codePointCount(0, text.length()) < length) {
            int codePoint = random.nextInt(4) == 0 ? 0x20 + random.nextInt(0x5F) : random.nextInt(0x30000);
            int type = Character.getType(codePoint);
            if ((codePoint >= 0x20 && codePoint < 0x7F)
                    || Character.isLetterOrDigit(codePoint)
                    || type == Character.OTHER_SYMBOL
                    || type == Character.MATH_SYMBOL) {
                text.appendCodePoint(codePoint);
            }
        }
        return text.toString();
    }

    private static void write(
            KubernetesClient client, Writer writer, String name, String part, String field, Object value) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(field, value);
        GenericKubernetesResource body = sample(name, part, fields);
        boolean status = part.equals("status");
        switch (writer) {
            case MERGE_PATCH -> {
                var target = client.resource(body);
                PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
                if (status) {
                    target.subresource("status").patch(merge);
                } else {
                    target.patch(merge);
                }
            }
            case SERVER_SIDE_APPLY -> {
                var target = client.resource(body);
                PatchContext apply = new PatchContext.Builder()
                        .withPatchType(PatchType.SERVER_SIDE_APPLY)
                        .withFieldManager(FIELD_MANAGER + "-" + field)
                        .withForce(true)
                        .build();
                if (status) {
                    target.subresource("status").patch(apply);
                } else {
                    target.patch(apply);
                }
            }
            case UPDATE -> {
                GenericKubernetesResource current = client.genericKubernetesResources(API_VERSION, KIND)
                        .inNamespace(NAMESPACE)
                        .withName(name)
                        .get();
                Map<String, Object> merged = new LinkedHashMap<>(part(current, part));
                merged.put(field, value);
                current.setAdditionalProperty(part, merged);
                if (status) {
                    client.resource(current).updateStatus();
                } else {
                    client.resource(current).update();
                }
            }
        }
    }

    private static GenericKubernetesResource sample(String name, String part, Map<String, Object> fields) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .addToAdditionalProperties(part, fields)
                .build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> part(GenericKubernetesResource object, String part) {
        Object fields = object.getAdditionalProperties().get(part);
        return fields == null ? Map.of() : (Map<String, Object>) fields;
    }

    private static String show(Object value) {
        if (!(value instanceof String text)) {
            return String.valueOf(value);
        }
        return text.length() > 40
                ? "a string of " + text.length() + " chars starting \"" + text.substring(0, 20) + "\""
                : "\"" + text + "\"";
    }

    private static void installCrd(KubernetesClient client) {
        CustomResourceDefinition crd = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .load(new ByteArrayInputStream(CRD.getBytes(StandardCharsets.UTF_8)))
                .item();
        client.resource(crd).forceConflicts().serverSideApply();
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(crd.getMetadata().getName())
                .waitUntilCondition(Crds::established, HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);
    }
}
