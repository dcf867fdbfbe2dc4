package io.kyma.operator.common;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * Informer stores that keep only what the controllers read, at 76,000 watched objects the largest part of the heap.
 * <ul>
 * <li>Server-side apply's {@code managedFields} go: once two field managers have written an object they are bigger
 * than the rest of it, and nothing here reads them.</li>
 * <li>Strings that thousands of objects repeat (namespace, labels, the owner, the API version) are interned, so each
 * is held once rather than once per object and per informer.</li>
 * </ul>
 */
public final class LeanCache {
    private LeanCache() {
    }

    /** A store keeping every object without its managedFields and with its repeated strings shared. */
    public static <R extends HasMetadata> ItemStore<R> store() {
        return store(UnaryOperator.identity());
    }

    /** As {@link #store()}, after {@code view} has cut the object down to what one reader needs. */
    public static <R extends HasMetadata> ItemStore<R> store(UnaryOperator<R> view) {
        return new Store<>(resource -> lean(view.apply(resource)));
    }

    static <R extends HasMetadata> R lean(R resource) {
        ObjectMeta metadata = resource.getMetadata();
        metadata.setManagedFields(null);
        metadata.setNamespace(intern(metadata.getNamespace()));
        metadata.setName(intern(metadata.getName())); // shared by the informers of two controllers
        metadata.setLabels(intern(metadata.getLabels()));
        metadata.setAnnotations(intern(metadata.getAnnotations()));
        if (metadata.getOwnerReferences() != null) {
            for (OwnerReference owner : metadata.getOwnerReferences()) {
                owner.setApiVersion(intern(owner.getApiVersion()));
                owner.setKind(intern(owner.getKind()));
                owner.setName(intern(owner.getName()));
                owner.setUid(intern(owner.getUid()));
            }
        }
        if (resource.getApiVersion() != null) {
            resource.setApiVersion(resource.getApiVersion().intern());
        }
        return resource;
    }

    private static Map<String, String> intern(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return map;
        }
        Map<String, String> interned = new LinkedHashMap<>(map.size() * 2);
        map.forEach((key, value) -> interned.put(intern(key), intern(value)));
        return interned;
    }

    private static String intern(String value) {
        return value == null ? null : value.intern();
    }

    /**
     * JOSDK's TransformingItemStore puts the original name and namespace back after the transformation, which would
     * undo their interning; this store keeps what the transformation returns.
     */
    private static final class Store<R extends HasMetadata> implements ItemStore<R> {
        private final UnaryOperator<R> transformation;
        private final ConcurrentHashMap<String, R> items = new ConcurrentHashMap<>();

        Store(UnaryOperator<R> transformation) {
            this.transformation = transformation;
        }

        @Override
        public String getKey(R resource) {
            return Cache.metaNamespaceKeyFunc(resource);
        }

        @Override
        public R put(String key, R resource) {
            return items.put(key, transformation.apply(resource));
        }

        @Override
        public R remove(String key) {
            return items.remove(key);
        }

        @Override
        public Stream<String> keySet() {
            return items.keySet().stream();
        }

        @Override
        public Stream<R> values() {
            return items.values().stream();
        }

        @Override
        public R get(String key) {
            return items.get(key);
        }

        @Override
        public int size() {
            return items.size();
        }
    }
}
