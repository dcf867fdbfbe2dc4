package io.kyma.operator.manager;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;

/** What an API-server watch saw in one namespace: every object's versions and deletions, in order. */
public final class History implements AutoCloseable {
    public record Event(Watcher.Action action, HasMetadata object) {}

    private final Map<String, List<HelmComponent>> components = new ConcurrentHashMap<>();
    private final Map<String, List<Kyma>> kymas = new ConcurrentHashMap<>();
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final Watch componentWatch;
    private final Map<String, List<Run>> runs = new ConcurrentHashMap<>();
    private final Watch kymaWatch;
    private final Watch runWatch;
    /** Why a watch ended before {@link #close()}, if one did: from then on its kind's versions are missing. */
    private volatile String broken;

    public History(KubernetesClient client, String namespace) {
        componentWatch =
                client.resources(HelmComponent.class).inNamespace(namespace).watch(recorder(components));
        kymaWatch = client.resources(Kyma.class).inNamespace(namespace).watch(recorder(kymas));
        runWatch = client.resources(Run.class).inNamespace(namespace).watch(recorder(runs));
    }

    private <T extends HasMetadata> Watcher<T> recorder(Map<String, List<T>> versions) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                events.add(new Event(action, resource));
                versions.computeIfAbsent(resource.getMetadata().getName(), k -> new CopyOnWriteArrayList<>())
                        .add(resource);
            }

            @Override
            public void onClose(WatcherException cause) {
                // fabric8 resumes a dropped watch by itself; it ends one only when it cannot (410 Gone: the last
                // version seen is no longer in the API server's watch cache)
                if (cause != null) {
                    broken = cause.getMessage();
                }
            }
        };
    }

    /** The distinct states a component went through, in order. */
    public List<HelmComponent> componentStates(String name) {
        List<HelmComponent> distinct = new CopyOnWriteArrayList<>();
        for (HelmComponent version : components.getOrDefault(name, List.of())) {
            if (version.getStatus() == null || version.getStatus().getState() == null) {
                continue;
            }
            if (distinct.isEmpty()
                    || distinct.get(distinct.size() - 1).getStatus().getState()
                            != version.getStatus().getState()) {
                distinct.add(version);
            }
        }
        return distinct;
    }

    public List<Kyma> kymaVersions(String name) {
        return kymas.getOrDefault(name, List.of());
    }

    /** Every version of a Run the watch delivered, in order. */
    public List<Run> runVersions(String name) {
        return runs.getOrDefault(name, List.of());
    }

    /** Why a watch of this history ended early, so that what it holds is incomplete; empty if none did. */
    public Optional<String> broken() {
        return Optional.ofNullable(broken);
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() {
        componentWatch.close();
        kymaWatch.close();
        runWatch.close();
    }
}
