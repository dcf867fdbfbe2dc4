package io.kyma.operator.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Installs the repository's committed CRDs, the same files a user applies. */
public final class Crds {
    private Crds() {}

    /** The repository's root: the nearest directory upwards that holds {@code config/crd/bases}. */
    public static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("config/crd/bases"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(
                    "config/crd/bases not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** Applies every CRD of config/crd/bases with server-side apply and waits until each is established. */
    public static List<CustomResourceDefinition> install(KubernetesClient client) {
        List<CustomResourceDefinition> installed = new ArrayList<>();
        try (Stream<Path> files = Files.list(repositoryRoot().resolve("config/crd/bases"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    CustomResourceDefinition crd = client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .load(in)
                            .item();
                    crd.getMetadata().setManagedFields(null);
                    client.resource(crd).forceConflicts().serverSideApply();
                    installed.add(client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd.getMetadata().getName())
                            .waitUntilCondition(Crds::established, 30, TimeUnit.SECONDS));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return installed;
    }

    /** Whether the API server serves the CRD: its status says Established (a new one may have no conditions yet). */
    public static boolean established(CustomResourceDefinition crd) {
        return crd != null
                && crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
