package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The JVM settings of the shipped Deployment ({@code config/manager/manager.yaml}), as a process outside a container
 * needs them: its {@code JAVA_TOOL_OPTIONS} as JVM flags, with the container's memory limit made explicit as
 * {@code -XX:MaxRAM} (outside a container the JVM would size its heap from the whole machine), and the container's
 * other literal environment variables (the allocator's settings) for the operator's environment.
 *
 * @param jvmOptions the flags
 * @param environment variables to set for the operator process
 */
record DeploymentJvm(List<String> jvmOptions, Map<String, String> environment) {
    static final String MANIFEST = "config/manager/manager.yaml";

    static DeploymentJvm read(Path repository) {
        try {
            return of(Files.readString(repository.resolve(MANIFEST)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + MANIFEST + ": " + e.getMessage(), e);
        }
    }

    static DeploymentJvm of(String manifest) {
        Container container = null;
        for (String document : manifest.split("(?m)^---\\s*$")) {
            if (document.contains("kind: Deployment")) {
                Deployment deployment = Serialization.unmarshal(document, Deployment.class);
                container = deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
            }
        }
        if (container == null) {
            throw new IllegalStateException(MANIFEST + " has no Deployment");
        }
        List<String> flags = new ArrayList<>();
        var limit = container.getResources() == null || container.getResources().getLimits() == null
                ? null
                : container.getResources().getLimits().get("memory");
        if (limit != null) {
            flags.add("-XX:MaxRAM=" + limit.getNumericalAmount().toBigInteger());
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
            if (variable.getValue() == null) {
                continue; // from a field or a secret: nothing a process here could take
            }
            if (variable.getName().equals("JAVA_TOOL_OPTIONS")) {
                flags.addAll(List.of(variable.getValue().trim().split("\\s+")));
            } else {
                environment.put(variable.getName(), variable.getValue());
            }
        }
        return new DeploymentJvm(List.copyOf(flags), Map.copyOf(environment));
    }

    /**
     * The flags a java of {@code feature} version takes: before Java 24 there are no compact object headers (the
     * image runs Java 25), so on an older java that flag alone is left out.
     */
    List<String> flagsFor(int feature) {
        return feature >= 24
                ? jvmOptions
                : jvmOptions.stream()
                        .filter(f -> !f.equals("-XX:+UseCompactObjectHeaders"))
                        .toList();
    }
}
