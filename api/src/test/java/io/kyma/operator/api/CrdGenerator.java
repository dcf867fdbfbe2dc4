package io.kyma.operator.api;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDGenerationInfo;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;

/**
 * Writes the CRDs of the custom-resource classes. The build runs it into {@code META-INF/fabric8/} of the api
 * module's classes; {@code make manifests} copies the result to {@code config/crd/bases/}.
 */
public final class CrdGenerator {
    private CrdGenerator() {}

    /** Generates every CRD into {@code dir}; returns CRD name to file. */
    public static Map<String, File> generate(File dir) {
        if (!dir.isDirectory() && !dir.mkdirs()) {
            throw new IllegalStateException("cannot create " + dir);
        }
        CRDGenerationInfo info = new CRDGenerator()
                .inOutputDir(dir)
                .forCRDVersions("v1")
                .withPostProcessor(new CRDPostProcessor() {
                    @Override
                    public HasMetadata process(HasMetadata crd, String crdSpecVersion) {
                        return finish(crd);
                    }
                })
                .customResourceClasses(Kyma.class, HelmComponent.class, Run.class)
                .detailedGenerate();
        Map<String, File> files = new TreeMap<>();
        info.getCRDDetailsPerNameAndVersion()
                .forEach((name, versions) ->
                        files.put(name, new File(versions.get("v1").getFilePath())));
        return files;
    }

    private static final Map<String, Class<?>> CLASSES =
            Map.of("Kyma", Kyma.class, "HelmComponent", HelmComponent.class, "Run", Run.class);

    /**
     * The generator sorts printer columns by JSON path; kubectl shows them in the order the class declares them.
     * It also cannot mark the inherited {@code spec} field as required, nor say that a list is a map.
     */
    private static HasMetadata finish(HasMetadata generated) {
        CustomResourceDefinition crd = (CustomResourceDefinition) generated;
        List<String> declared = Arrays.stream(
                        CLASSES.get(crd.getSpec().getNames().getKind())
                                .getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name)
                .toList();
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            List<CustomResourceColumnDefinition> columns = new ArrayList<>(version.getAdditionalPrinterColumns());
            columns.sort(Comparator.comparing(c -> declared.indexOf(c.getName())));
            version.setAdditionalPrinterColumns(columns);
            JSONSchemaProps schema = version.getSchema().getOpenAPIV3Schema();
            schema.setRequired(List.of("spec"));
            if (crd.getSpec().getNames().getKind().equals("Run")) {
                // A map's size and its values' length; API servers before CEL cannot bound its keys' length.
                JSONSchemaProps params = schema.getProperties()
                        .get("spec")
                        .getProperties()
                        .get("job")
                        .getProperties()
                        .get("params");
                params.setMaxProperties((long) Validation.JOB_PARAMS_MAX);
                params.getAdditionalProperties().getSchema().setMaxLength((long) Validation.JOB_PARAM_VALUE_MAX);
            }
            if (crd.getSpec().getNames().getKind().equals("Kyma")) {
                // One entry per module name: a duplicate is refused at admission, naming the field.
                JSONSchemaProps modules =
                        schema.getProperties().get("spec").getProperties().get("modules");
                modules.setXKubernetesListType("map");
                modules.setXKubernetesListMapKeys(List.of("name"));
                // The API server lets a schema restrict metadata.name, and nothing else of metadata.
                schema.getProperties()
                        .put(
                                "metadata",
                                new JSONSchemaPropsBuilder()
                                        .withType("object")
                                        .addToProperties(
                                                "name",
                                                new JSONSchemaPropsBuilder()
                                                        .withType("string")
                                                        .withMaxLength((long) Validation.KYMA_NAME_MAX)
                                                        .build())
                                        .build());
            }
        }
        return crd;
    }

    /** kubebuilder's file name for a CRD: {@code <group>_<plural>.yaml}. */
    public static String basesFileName(String crdName) {
        int dot = crdName.indexOf('.');
        return crdName.substring(dot + 1) + "_" + crdName.substring(0, dot) + ".yaml";
    }

    /** {@code CrdGenerator <output-dir> [<bases-dir>]}: also copies the CRDs to bases-dir under kubebuilder's names. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: CrdGenerator <output-dir> [<bases-dir>]");
            System.exit(2);
        }
        Map<String, File> generated = generate(new File(args[0]));
        Path bases = args.length == 2 && args[1] != null && !args[1].isBlank() ? Path.of(args[1]) : null;
        for (var entry : generated.entrySet()) {
            if (bases != null) {
                Files.createDirectories(bases);
                Path target = bases.resolve(basesFileName(entry.getKey()));
                Files.copy(entry.getValue().toPath(), target, StandardCopyOption.REPLACE_EXISTING);
                System.out.println("wrote " + target);
            }
        }
    }
}
