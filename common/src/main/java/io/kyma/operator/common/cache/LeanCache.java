package io.kyma.operator.common.cache;

import java.lang.ref.WeakReference;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;
import java.util.UUID;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * Informer stores that keep each custom resource in a compact form and build the object again on every read. At
 * 76,000 watched objects the informer caches are most of the heap; a fabric8 object with its metadata is about
 * thirty objects and two dozen strings, most of them either never read here or the same in thousands of objects.
 * <p>
 * What is kept of the metadata: name, namespace, generateName, uid (as two longs), resourceVersion (as a long),
 * generation, creation and deletion timestamps, the deletion grace period, the labels the operator reads
 * ({@link #KEPT_LABELS}), the owner references it reads ({@link #shareOwners}) and the finalizers ({@link
 * #keptFinalizers}: a long list only as its length, its first {@link #NAMED_FINALIZERS} entries and the kind's own entry). What goes: server-side apply's {@code managedFields}
 * (bigger than the rest of an object once two managers have written it), selfLink, unknown fields, every other label
 * and every annotation. Those are the tenant's to write, up to hundreds of KiB an object, and nothing here reads
 * them: kept, a few hundred such objects would fill the heap. Spec and status are kept as they came, after the kind's
 * {@link Form} has shared their repeated strings. Strings that many objects repeat are shared: namespace, timestamps,
 * label keys and values through {@link String#intern()}; owner lists and finalizer lists through a weak pool of
 * canonical, unmodifiable copies (the eighteen components of one Kyma hold one owner list). Labels and annotations
 * are kept as arrays of pairs.
 * <p>
 * The objects a read builds share those parts with each other and with the store: like every informer cache, treat
 * them as read-only (JOSDK hands reconcilers a deep copy).
 */
public final class LeanCache {
    private static final Logger LOG = LoggerFactory.getLogger(LeanCache.class);
    private static final AtomicLong FALLBACKS = new AtomicLong();
    private static final Canonical CANONICAL = new Canonical();
    /** A generation or resourceVersion that was absent. */
    private static final long ABSENT = Long.MIN_VALUE;

    private LeanCache() {}

    /**
     * How a kind is made and which of its strings repeat.
     *
     * @param <R> the kind
     */
    public interface Form<R extends CustomResource<?, ?>> {
        /** A new object of the kind, without metadata, spec or status that matter. */
        R empty();

        /**
         * Replaces strings of spec and status that many objects repeat with shared copies ({@link #share(String)}),
         * in place. The default shares nothing.
         */
        default void shareStrings(R resource) {}
    }

    /** A store keeping each object in its compact form. */
    public static <R extends CustomResource<?, ?>> ItemStore<R> store(Form<R> form) {
        return new Store<>(form);
    }

    /**
     * A copy of {@code resource} in the form a store of {@code form} hands out: without managedFields, its repeated
     * strings, labels and owners shared. For objects held outside the store for a while, such as write answers kept
     * until the watch delivers them. Should that fail, the object itself, trimmed.
     */
    public static <R extends CustomResource<?, ?>> R lean(Form<R> form, R resource) {
        try {
            form.shareStrings(resource);
            return new Compact(Cache.metaNamespaceKeyFunc(resource), resource, null).build(form);
        } catch (RuntimeException e) {
            fellBack(e);
            return trim(resource);
        }
    }

    /** One shared copy of a string that many objects repeat; null stays null. */
    public static String share(String value) {
        return value == null ? null : value.intern();
    }

    /** One shared, unmodifiable copy of a list that many objects repeat; null stays null. */
    public static <E> List<E> share(List<E> list) {
        return list == null ? null : CANONICAL.of(new Pooled<>(list.toArray()));
    }

    /**
     * One shared, unmodifiable copy of a list of conditions, with their strings shared: the components in one state
     * since the same second hold one list. Null stays null.
     */
    public static List<Condition> shareConditions(List<Condition> conditions) {
        if (conditions == null) {
            return null;
        }
        for (Condition condition : conditions) {
            condition.setType(share(condition.getType()));
            condition.setStatus(share(condition.getStatus()));
            condition.setReason(share(condition.getReason()));
            condition.setMessage(share(condition.getMessage()));
            condition.setLastTransitionTime(share(condition.getLastTransitionTime()));
        }
        return share(conditions);
    }

    /**
     * Cuts an object down to what a short-lived cache needs, in place: without managedFields, labels and annotations
     * nobody here reads, and with its namespace shared. For the answers of writes that JOSDK keeps until the watch
     * has the version.
     */
    public static <R extends HasMetadata> R trim(R resource) {
        ObjectMeta metadata = resource.getMetadata();
        metadata.setManagedFields(null);
        metadata.setNamespace(share(metadata.getNamespace()));
        metadata.setLabels(kept(metadata.getLabels(), LeanCache::keptLabel));
        metadata.setAnnotations(kept(metadata.getAnnotations(), LeanCache::keptAnnotation));
        return resource;
    }

    private static Map<String, String> kept(Map<String, String> map, Predicate<String> kept) {
        Map<String, String> out = new LinkedHashMap<>();
        if (map != null) {
            map.forEach((key, value) -> {
                if (kept.test(key)) {
                    out.put(key, value);
                }
            });
        }
        return out;
    }

    /** How many objects were kept as they came because making them compact failed. */
    public static long fallbacks() {
        return FALLBACKS.get();
    }

    private static void fellBack(RuntimeException e) {
        if (FALLBACKS.getAndIncrement() == 0) {
            LOG.warn(
                    "Keeping an informer's object as it came; making it compact failed (counted in"
                            + " kyma_operator_lean_cache_fallbacks_total, logged once): {}",
                    e.toString());
        }
    }

    /** The metadata fields that nearly every object leaves empty, held apart so that the common case costs one null. */
    private record Rare(
            String generateName,
            String uid,
            String resourceVersion,
            String deletionTimestamp,
            Long deletionGracePeriodSeconds) {
        static Rare of(ObjectMeta m, boolean uidText, boolean versionText) {
            if (m.getGenerateName() == null
                    && !uidText
                    && !versionText
                    && m.getDeletionTimestamp() == null
                    && m.getDeletionGracePeriodSeconds() == null) {
                return null;
            }
            return new Rare(
                    share(m.getGenerateName()),
                    uidText ? m.getUid() : null,
                    versionText ? m.getResourceVersion() : null,
                    share(m.getDeletionTimestamp()),
                    m.getDeletionGracePeriodSeconds());
        }
    }

    /** One object as the store keeps it. */
    static final class Compact {
        /** "namespace/name", or the name of a cluster-scoped object: the store's key, also the informer's. */
        final String key;
        /**
         * Kept besides the key, and the same string for every version of the object: JOSDK keeps a ResourceID or two
         * per object for as long as the object lives, each holding the name of the object it was made from.
         */
        final String name;

        final String namespace;
        final long uidHigh;
        final long uidLow;
        final long resourceVersion;
        final long generation;
        final String creationTimestamp;
        final Map<String, String> labels;
        final Map<String, String> annotations;
        final List<OwnerReference> owners;
        final List<String> finalizers;
        final Rare rare;
        final Object spec;
        final Object status;

        /** @param previous the object's previous version in the store, whose strings are kept, or null */
        Compact(String key, CustomResource<?, ?> resource, Compact previous) {
            ObjectMeta m = resource.getMetadata();
            boolean same = previous != null && previous.key.equals(key);
            this.key = same ? previous.key : key;
            this.name = same && previous.name.equals(m.getName()) ? previous.name : m.getName();
            this.namespace = share(m.getNamespace());
            UUID uid = uuid(m.getUid());
            this.uidHigh = uid == null ? 0 : uid.getMostSignificantBits();
            this.uidLow = uid == null ? 0 : uid.getLeastSignificantBits();
            long version = number(m.getResourceVersion());
            this.resourceVersion = version;
            this.generation = m.getGeneration() == null ? ABSENT : m.getGeneration();
            this.creationTimestamp = share(m.getCreationTimestamp());
            this.labels = shareMap(m.getLabels(), LeanCache::keptLabel);
            this.annotations = shareMap(m.getAnnotations(), LeanCache::keptAnnotation);
            this.owners = shareOwners(m.getOwnerReferences(), resource.getGroup());
            this.finalizers =
                    keptFinalizers(m.getFinalizers(), resource.getPlural() + "." + resource.getGroup() + "/finalizer");
            this.rare =
                    Rare.of(m, uid == null && m.getUid() != null, version == ABSENT && m.getResourceVersion() != null);
            this.spec = resource.getSpec();
            this.status = resource.getStatus();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        <R extends CustomResource<?, ?>> R build(Form<R> form) {
            ObjectMeta m = new ObjectMeta();
            m.setName(name);
            m.setNamespace(namespace);
            m.setUid(
                    rare != null && rare.uid() != null
                            ? rare.uid()
                            : uidHigh == 0 && uidLow == 0 ? null : new UUID(uidHigh, uidLow).toString());
            m.setResourceVersion(
                    rare != null && rare.resourceVersion() != null
                            ? rare.resourceVersion()
                            : resourceVersion == ABSENT ? null : Long.toString(resourceVersion));
            m.setGeneration(generation == ABSENT ? null : generation);
            m.setCreationTimestamp(creationTimestamp);
            m.setLabels(labels);
            m.setAnnotations(annotations);
            m.setOwnerReferences(owners);
            m.setFinalizers(finalizers);
            m.setManagedFields(null);
            m.setAdditionalProperties(null);
            if (rare != null) {
                m.setGenerateName(rare.generateName());
                m.setDeletionTimestamp(rare.deletionTimestamp());
                m.setDeletionGracePeriodSeconds(rare.deletionGracePeriodSeconds());
            }
            R resource = form.empty();
            resource.setMetadata(m);
            ((CustomResource) resource).setSpec(spec);
            ((CustomResource) resource).setStatus(status);
            return resource;
        }

        /** The uid, if it is a UUID in its canonical text (so that it reads back the same). */
        private static UUID uuid(String text) {
            if (text == null || text.length() != 36) {
                return null;
            }
            try {
                UUID uuid = UUID.fromString(text);
                return uuid.toString().equals(text)
                                && (uuid.getMostSignificantBits() != 0 || uuid.getLeastSignificantBits() != 0)
                        ? uuid
                        : null;
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** The resourceVersion as a number, if it is one that reads back the same (etcd's are). */
        private static long number(String text) {
            if (text == null || text.isEmpty() || text.length() > 18 || text.charAt(0) == '0') {
                return ABSENT;
            }
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                    return ABSENT;
                }
            }
            return Long.parseLong(text);
        }
    }

    /**
     * Labels and annotations stay non-null: fabric8 always fills them and JOSDK reads them without a check (an
     * informer event source looks up its own annotation in every event). An empty one becomes the shared empty map;
     * any other a {@link PairMap} of shared strings. A HelmComponent's labels name its Kyma and module, so they differ
     * from object to object and a pool of equal maps would cost more than it saves.
     */
    private static Map<String, String> shareMap(Map<String, String> map, Predicate<String> kept) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        String[] pairs = new String[map.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> entry : map.entrySet()) {
            if (kept.test(entry.getKey())) {
                pairs[i++] = share(entry.getKey());
                pairs[i++] = share(entry.getValue());
            }
        }
        return i == 0 ? Map.of() : new PairMap(i == pairs.length ? pairs : Arrays.copyOf(pairs, i));
    }

    /**
     * The labels kept: exactly the keys the operator reads (the api module's {@code Labels}; a test keeps the two
     * equal). A prefix would not do: a tenant may write any number of keys under it.
     */
    public static final Set<String> KEPT_LABELS = Set.of(
            "app.kubernetes.io/managed-by",
            "kyma-project.io/kyma",
            "kyma-project.io/module",
            "kyma-project.io/shard",
            "kyma-project.io/shard-drain");

    /** No annotation is kept: nothing here reads one (JOSDK reads its own only for dependent resources). */
    static boolean keptAnnotation(String key) {
        return false;
    }

    static boolean keptLabel(String key) {
        return KEPT_LABELS.contains(key);
    }

    /**
     * An unmodifiable map of a few string pairs in one array: for three labels 56 bytes, where a LinkedHashMap takes
     * about 300. Lookups scan the array, which for a handful of entries is as fast as hashing. Null keys and values
     * are allowed and found, as in a LinkedHashMap.
     */
    static final class PairMap extends AbstractMap<String, String> {
        private final String[] pairs;

        PairMap(String[] pairs) {
            this.pairs = pairs;
        }

        @Override
        public String get(Object key) {
            for (int i = 0; i < pairs.length; i += 2) {
                if (Objects.equals(pairs[i], key)) {
                    return pairs[i + 1];
                }
            }
            return null;
        }

        @Override
        public boolean containsKey(Object key) {
            for (int i = 0; i < pairs.length; i += 2) {
                if (Objects.equals(pairs[i], key)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public int size() {
            return pairs.length / 2;
        }

        @Override
        public Set<Map.Entry<String, String>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, String>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < pairs.length;
                        }

                        @Override
                        public Map.Entry<String, String> next() {
                            if (next >= pairs.length) {
                                throw new NoSuchElementException();
                            }
                            next += 2;
                            return new SimpleImmutableEntry<>(pairs[next - 2], pairs[next - 1]);
                        }
                    };
                }

                @Override
                public int size() {
                    return pairs.length / 2;
                }
            };
        }
    }

    /** Owner references of the object's own API group kept beside its controller's, at most. */
    static final int KEPT_OWNERS = 4;
    /** Finalizer lists up to this long are kept as they are; longer ones as {@link Finalizers}. */
    static final int FEW_FINALIZERS = 8;

    /**
     * The owner references the operator reads: the controller's, and the first {@link #KEPT_OWNERS} of the object's
     * own API group. Anyone who may edit an object may add thousands of others; nothing here reads them (the API
     * server's garbage collector reads its own copy).
     */
    private static List<OwnerReference> shareOwners(List<OwnerReference> owners, String group) {
        if (owners == null || owners.isEmpty()) {
            return List.of();
        }
        List<OwnerReference> copy = new ArrayList<>(Math.min(owners.size(), KEPT_OWNERS + 1));
        int ofGroup = 0;
        for (OwnerReference o : owners) {
            boolean controller = Boolean.TRUE.equals(o.getController());
            boolean sameGroup = o.getApiVersion() != null && o.getApiVersion().startsWith(group + "/");
            if (!controller && !(sameGroup && ofGroup < KEPT_OWNERS)) {
                continue;
            }
            ofGroup += sameGroup && !controller ? 1 : 0;
            OwnerReference shared = new OwnerReference(
                    share(o.getApiVersion()),
                    o.getBlockOwnerDeletion(),
                    o.getController(),
                    share(o.getKind()),
                    share(o.getName()),
                    share(o.getUid()));
            shared.setAdditionalProperties(null);
            copy.add(shared);
        }
        return CANONICAL.of(new Pooled<>(copy.toArray()));
    }

    /**
     * The first entries of any finalizer list kept by name, however long the list: a status that names what holds an
     * object names these (and how many others there are), never a placeholder.
     */
    public static final int NAMED_FINALIZERS = 3;

    /**
     * The finalizers as the cache keeps them: a short list as it is; a long one (anyone who may edit the object may
     * write thousands) as its length, its first {@link #NAMED_FINALIZERS} entries and where the kind's own finalizer
     * stands, every other entry read as a placeholder. Each entry keeps its place, so that the JSON patch JOSDK
     * computes from the cached object to take its finalizer off removes that entry and no other.
     */
    static List<String> keptFinalizers(List<String> all, String own) {
        if (all == null || all.isEmpty()) {
            return List.of();
        }
        if (all.size() <= FEW_FINALIZERS) {
            return share(all.stream().map(LeanCache::share).toList());
        }
        return new Finalizers(
                all.size(),
                all.indexOf(own),
                own,
                all.subList(0, NAMED_FINALIZERS).stream().map(LeanCache::share).toArray(String[]::new));
    }

    /**
     * A long finalizer list: its length, its first entries and the kind's own finalizer in their places; the others
     * read as a placeholder.
     */
    static final class Finalizers extends AbstractList<String> implements RandomAccess {
        /** What every finalizer not kept reads as. */
        static final String OTHER = "finalizer.not.kept.in.the.operator.cache/other";

        private final int size;
        private final int own;
        private final String ownName;
        private final String[] first;

        Finalizers(int size, int own, String ownName, String[] first) {
            this.size = size;
            this.own = own;
            this.ownName = ownName;
            this.first = first;
        }

        @Override
        public String get(int index) {
            Objects.checkIndex(index, size);
            if (index == own) {
                return ownName;
            }
            return index < first.length ? first[index] : OTHER;
        }

        @Override
        public int size() {
            return size;
        }
    }

    /**
     * A pool of canonical copies of equal values, held weakly: a value is kept while some object still uses it.
     * Callers put in only values they will not change.
     */
    static final class Canonical {
        /**
         * The most existing values a look-up compares a new one with. Anyone may write the strings these lists hold,
         * and strings are easily made to share a hash code ("Aa" and "BB"): thousands of lists in one bucket would
         * make every look-up compare with all of them, under this lock that every informer's writes take.
         */
        static final int MOST_COMPARED = 8;

        private final Map<Object, WeakReference<Object>> pool = new WeakHashMap<>();

        @SuppressWarnings("unchecked")
        synchronized <V> V of(V value) {
            Pooled<?> counted = value instanceof Pooled<?> p ? p : null;
            try {
                count(counted);
                WeakReference<Object> ref = pool.get(value);
                Object known = ref == null ? null : ref.get();
                if (known != null) {
                    return (V) known;
                }
                count(counted); // the put walks the same bucket again
                pool.put(value, new WeakReference<>(value));
                return value;
            } catch (TooManyCompared e) {
                return value; // kept unshared: it costs its own memory, not every writer's time
            } finally {
                if (counted != null) {
                    counted.comparisonsLeft = 0;
                }
            }
        }

        private static void count(Pooled<?> value) {
            if (value != null) {
                value.comparisonsLeft = MOST_COMPARED + 1;
            }
        }

        synchronized int size() {
            return pool.size();
        }
    }

    /** A look-up of the pool that would compare a value with more than {@link Canonical#MOST_COMPARED} others. */
    private static final class TooManyCompared extends RuntimeException {
        private static final TooManyCompared INSTANCE = new TooManyCompared();

        private TooManyCompared() {
            super(null, null, false, false);
        }
    }

    /**
     * An unmodifiable list the pool holds, whose equality checks the pool can count while it looks the list up (a
     * list like any other otherwise: the same hash code and equality).
     */
    static final class Pooled<E> extends AbstractList<E> implements RandomAccess {
        private final Object[] items;
        private int hash;
        /** While the pool looks this list up: one more than the comparisons it may still make; 0 otherwise. */
        private int comparisonsLeft;

        Pooled(Object[] items) {
            this.items = items;
        }

        @Override
        @SuppressWarnings("unchecked")
        public E get(int index) {
            return (E) items[index];
        }

        @Override
        public int size() {
            return items.length;
        }

        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = super.hashCode();
                hash = h;
            }
            return h;
        }

        @Override
        public boolean equals(Object other) {
            if (comparisonsLeft > 0 && --comparisonsLeft == 0) {
                throw TooManyCompared.INSTANCE;
            }
            return super.equals(other);
        }
    }

    /**
     * Keyed as the informer keys its objects, with one key string per object that the store, the informer's namespace
     * index and {@link SharedStore}'s owner index all hold: {@link #getKey} answers the stored key for an object it
     * holds. A store write never fails: should compacting an object fail, it is kept as it came and counted.
     */
    static final class Store<R extends CustomResource<?, ?>> implements ItemStore<R> {
        private final Form<R> form;
        /** A {@link Compact} or, rarely, the object itself, by key. */
        private final ConcurrentHashMap<String, Object> items = new ConcurrentHashMap<>();

        Store(Form<R> form) {
            this.form = form;
        }

        Form<R> form() {
            return form;
        }

        @Override
        public String getKey(R resource) {
            String key = Cache.metaNamespaceKeyFunc(resource);
            return items.get(key) instanceof Compact held ? held.key : key;
        }

        @Override
        public R put(String key, R resource) {
            Object kept;
            try {
                form.shareStrings(resource);
                Compact compact =
                        new Compact(key, resource, items.get(key) instanceof Compact previous ? previous : null);
                // The informer hands this object to its event handlers, and JOSDK keeps the ResourceID it makes of
                // it for the object's whole life: let it hold the store's name and namespace strings.
                resource.getMetadata().setName(compact.name);
                resource.getMetadata().setNamespace(compact.namespace);
                kept = compact;
            } catch (RuntimeException e) {
                fellBack(e);
                resource.getMetadata().setManagedFields(null);
                kept = resource;
            }
            return build(items.put(key, kept));
        }

        @Override
        public R remove(String key) {
            return build(items.remove(key));
        }

        @Override
        public Stream<String> keySet() {
            return items.keySet().stream();
        }

        @Override
        public Stream<R> values() {
            return items.values().stream().map(this::build);
        }

        @Override
        public R get(String key) {
            return build(items.get(key));
        }

        @Override
        public int size() {
            return items.size();
        }

        @SuppressWarnings("unchecked")
        private R build(Object kept) {
            if (kept instanceof Compact compact) {
                return compact.build(form);
            }
            return (R) kept;
        }
    }
}
