package io.kyma.operator.bench;

import java.net.HttpURLConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;

/**
 * Deletes the Kymas and HelmComponents in the benchmark's namespace on a cluster that outlives a run, so that the
 * next run starts empty. No operator runs meanwhile, so the Kymas' finalizers are taken off here. Objects go one by
 * one, a page at a time: one list or delete-collection of 72,000 objects outlasts the client's request timeout, and
 * the embedded control plane has no garbage collector to delete the components of a deleted Kyma.
 */
final class Leftovers {
    private static final long PAGE = 500;
    private static final int DELETERS = 16;
    private static final int STUCK_LISTS = 60;
    private static final long STUCK_PAUSE_MS = 500;

    private Leftovers() {}

    /** Deletes every Kyma and HelmComponent in {@code namespace}; returns how many there were. */
    static long sweep(KubernetesClient client, String namespace) throws InterruptedException {
        ExecutorService deleters = Executors.newFixedThreadPool(DELETERS);
        try {
            return sweep(client, namespace, HelmComponent.class, deleters)
                    + sweep(client, namespace, Kyma.class, deleters);
        } finally {
            deleters.shutdownNow();
        }
    }

    private static <R extends HasMetadata> long sweep(
            KubernetesClient client, String namespace, Class<R> type, ExecutorService deleters)
            throws InterruptedException {
        Set<String> deleted = new HashSet<>();
        List<String> previous = List.of();
        int unchanged = 0;
        while (true) {
            List<R> page = client.resources(type)
                    .inNamespace(namespace)
                    .list(new ListOptionsBuilder().withLimit(PAGE).build())
                    .getItems();
            if (page.isEmpty()) {
                return deleted.size();
            }
            List<String> names =
                    page.stream().map(o -> o.getMetadata().getName()).toList();
            if (names.equals(previous)) { // deleted, yet still there: something puts finalizers back
                if (++unchanged > STUCK_LISTS) {
                    throw new IllegalStateException(type.getSimpleName() + "s in namespace " + namespace
                            + " do not go away after deletion; is an operator still running there?");
                }
                Thread.sleep(STUCK_PAUSE_MS);
            } else {
                unchanged = 0;
            }
            previous = names;
            deleted.addAll(names);
            List<Future<?>> deletions = page.stream()
                    .<Future<?>>map(object -> deleters.submit(() -> delete(client, namespace, type, object)))
                    .toList();
            for (Future<?> deletion : deletions) {
                try {
                    deletion.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException(
                            "cannot delete a " + type.getSimpleName() + " left in namespace " + namespace + ": "
                                    + e.getCause().getMessage(),
                            e.getCause());
                }
            }
        }
    }

    private static <R extends HasMetadata> void delete(
            KubernetesClient client, String namespace, Class<R> type, R object) {
        var resource = client.resources(type)
                .inNamespace(namespace)
                .withName(object.getMetadata().getName());
        try {
            if (!object.getMetadata().getFinalizers().isEmpty()) {
                resource.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
            }
            resource.delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }
}
