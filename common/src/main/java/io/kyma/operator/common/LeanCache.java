package io.kyma.operator.common;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * Informer stores that keep only what the controllers read, at 76,000 watched objects the largest part of the heap.
 * <ul>
 * <li>Server-side apply's {@code managedFields} go: once two field managers have written an object they are bigger
 * than the rest of it, and nothing here reads them.</li>
 * <li>Empty maps, which fabric8's models create for every object, are dropped.</li>
 * <li>Strings that thousands of objects repeat (namespace, labels, the owner, the API version) are interned, so each
 * is held once rather than once per object and per informer.</li>
 * <li>fabric8's {@link CustomResource} computes its API version, CRD name, singular and plural afresh in every
 * instance, four new strings (about 270 bytes) per object of what is a constant of its class. They are replaced by
 * shared copies, through reflection because the fields are final; should fabric8 rename them, the objects just keep
 * their own copies and a warning says so.</li>
 * </ul>
 */
public final class LeanCache {
    private static final Logger LOG = LoggerFactory.getLogger(LeanCache.class);
    private static final List<Field> CUSTOM_RESOURCE_NAMES = customResourceNames();
    private static final AtomicLong FALLBACKS = new AtomicLong();

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
        metadata.setAdditionalProperties(emptyToNull(metadata.getAdditionalProperties()));
        if (metadata.getOwnerReferences() != null) {
            for (OwnerReference owner : metadata.getOwnerReferences()) {
                owner.setApiVersion(intern(owner.getApiVersion()));
                owner.setKind(intern(owner.getKind()));
                owner.setName(intern(owner.getName()));
                owner.setUid(intern(owner.getUid()));
                owner.setAdditionalProperties(emptyToNull(owner.getAdditionalProperties()));
            }
        }
        if (resource instanceof CustomResource<?, ?> custom) {
            shareNames(custom);
        } else if (resource.getApiVersion() != null) {
            resource.setApiVersion(resource.getApiVersion().intern());
        }
        return resource;
    }

    private static void shareNames(CustomResource<?, ?> resource) {
        try {
            for (Field field : CUSTOM_RESOURCE_NAMES) {
                Object value = field.get(resource);
                if (value instanceof String name) {
                    field.set(resource, name.intern());
                }
            }
        } catch (IllegalAccessException | RuntimeException e) {
            // The object keeps its own copies: a little more memory, nothing wrong.
            fellBack(e);
        }
    }

    /** How many objects were kept as they came because making them lean failed. */
    public static long fallbacks() {
        return FALLBACKS.get();
    }

    private static void fellBack(Exception e) {
        if (FALLBACKS.getAndIncrement() == 0) {
            LOG.warn("Keeping an informer's object as it came; making it lean failed (counted in"
                    + " kyma_operator_lean_cache_fallbacks_total, logged once): {}", e.toString());
        }
    }

    private static List<Field> customResourceNames() {
        try {
            List<Field> fields = new ArrayList<>();
            for (String name : List.of("apiVersion", "crdName", "singular", "plural")) {
                Field field = CustomResource.class.getDeclaredField(name);
                field.setAccessible(true);
                fields.add(field);
            }
            return List.copyOf(fields);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("Custom resources in the informer caches keep their own copies of their names: {}", e.toString());
            return List.of();
        }
    }

    /**
     * fabric8's models start every map as an empty LinkedHashMap; at eight or so per object they weighed more than
     * the strings. Jackson and the models' equals treat a null map like an empty one.
     */
    private static <V> Map<String, V> emptyToNull(Map<String, V> map) {
        return map == null || map.isEmpty() ? null : map;
    }

    /**
     * Labels and annotations stay non-null: fabric8 always fills them and JOSDK reads them without a check (an
     * informer event source looks up its own annotation in every event). An empty one becomes the shared empty map,
     * which costs nothing per object.
     */
    private static Map<String, String> intern(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return Map.of();
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
            // The informer hands this same object to its event handlers, whose queues can hold thousands of them.
            resource.getMetadata().setManagedFields(null);
            R kept;
            try {
                kept = transformation.apply(resource);
            } catch (RuntimeException e) {
                // Never fail inside the informer: a failed store write would stop its watch.
                fellBack(e);
                kept = resource;
            }
            return items.put(key, kept);
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
