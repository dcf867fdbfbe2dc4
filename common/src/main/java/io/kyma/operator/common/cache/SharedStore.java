package io.kyma.operator.common.cache;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * The store of one informer that a second controller reads too, so that a kind two controllers need is watched,
 * parsed and held once. JOSDK 5.2.3 gives every controller informers of its own; the controller whose primary resource
 * this is keeps the informer, with this as its store, and a controller that owns those resources reads them here by
 * owner ({@link #ownedBy}) and hears of every change ({@link #onChange}).
 * <p>
 * Listeners are called on the informer's thread right after the store changed, before the informer's own event
 * handlers: they must only hand the news on (a JOSDK event is a map entry and a task), never block, and a listener
 * that throws is counted and logged once, never allowed to fail the informer's store write.
 *
 * @param <R> the kind
 */
public final class SharedStore<R extends HasMetadata> implements ItemStore<R> {
    private static final Logger LOG = LoggerFactory.getLogger(SharedStore.class);

    private final String ownerKind;
    private final ItemStore<R> items;
    /** Keys of the objects each owner ("namespace/name") owns. */
    private final ConcurrentHashMap<String, Set<String>> byOwner = new ConcurrentHashMap<>();

    private final RecentWrites recentWrites;
    private final List<BiConsumer<R, R>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong listenerFailures = new AtomicLong();
    private volatile BooleanSupplier synced = () -> false;

    /**
     * @param ownerKind the kind of owner to index the objects by, or null for none
     * @param items where the objects are kept, for example a {@link LeanCache} store
     * @param recentWritesMax how many answers of this controller's writes JOSDK's temporary cache may hold
     */
    public SharedStore(String ownerKind, ItemStore<R> items, int recentWritesMax) {
        this.ownerKind = ownerKind;
        this.items = items;
        this.recentWrites = new RecentWrites(recentWritesMax, items::get);
    }

    /**
     * {@code resource} as this store would hand it out (see {@link LeanCache#lean}), for objects held beside the store
     * for a while; the object itself if this store does not keep a compact form.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public R lean(R resource) {
        if (items instanceof LeanCache.Store<?> lean && resource instanceof CustomResource) {
            return (R) LeanCache.lean((LeanCache.Form) lean.form(), (CustomResource) resource);
        }
        return resource;
    }

    /** The informer store of the context's controller, if it is a {@link SharedStore}; else null. */
    @SuppressWarnings("unchecked")
    public static <P extends HasMetadata> SharedStore<P> of(Context<P> context) {
        var controller = context.getControllerConfiguration();
        var informer = controller == null ? null : controller.getInformerConfig();
        return informer != null && informer.getItemStore() instanceof SharedStore<?> store
                ? (SharedStore<P>) store
                : null;
    }

    /**
     * The answer of this controller's last write of {@code resource}'s object if it is newer than {@code resource},
     * else {@code resource} (see {@link RecentWrites#newerThan}).
     *
     * @param clone copies what is held, which the store shares
     */
    public R newest(R resource, UnaryOperator<R> clone) {
        return recentWrites
                .newerThan(Cache.metaNamespaceKeyFunc(resource), resource)
                .map(clone)
                .orElse(resource);
    }

    /** The writes of this controller whose answers JOSDK holds until this store has that version. */
    public RecentWrites recentWrites() {
        return recentWrites;
    }

    /**
     * Calls {@code listener} with the object before and after each change: (null, added), (old, new) or (removed,
     * null). The new object is the one the informer hands to its event handlers, the old one as the store built it:
     * read them, do not change them.
     */
    public void onChange(BiConsumer<R, R> listener) {
        listeners.add(listener);
    }

    /** Tells the store how to know whether its informer has listed everything once (the owner of the informer). */
    public void syncedWhen(BooleanSupplier synced) {
        this.synced = synced;
    }

    /** Whether the informer that fills this store has listed everything once: before that, absence means nothing. */
    public boolean synced() {
        return synced.getAsBoolean();
    }

    /** The objects whose owner of the store's kind is {@code namespace/name}. */
    public Stream<R> ownedBy(String namespace, String name) {
        Set<String> keys = byOwner.get(namespace + "/" + name);
        return keys == null ? Stream.empty() : keys.stream().map(items::get).filter(r -> r != null);
    }

    /** The owner of {@code resource} of kind {@code ownerKind}, as "namespace/name", if it has one. */
    public static Optional<String> owner(HasMetadata resource, String ownerKind) {
        List<OwnerReference> owners = resource.getMetadata().getOwnerReferences();
        if (owners == null) {
            return Optional.empty();
        }
        return owners.stream()
                .filter(o -> ownerKind.equals(o.getKind()))
                .findFirst()
                .map(o -> resource.getMetadata().getNamespace() + "/" + o.getName());
    }

    /** Listener calls that threw. */
    public long listenerFailures() {
        return listenerFailures.get();
    }

    @Override
    public String getKey(R resource) {
        return items.getKey(resource);
    }

    @Override
    public R put(String key, R resource) {
        R before = items.put(key, resource);
        recentWrites.seen(key, resource);
        index(before, resource);
        tell(before, resource);
        return before;
    }

    @Override
    public R remove(String key) {
        R before = items.remove(key);
        recentWrites.forget(key);
        if (before != null) {
            index(before, null);
            tell(before, null);
        }
        return before;
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet();
    }

    @Override
    public Stream<R> values() {
        return items.values();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public R get(String key) {
        return items.get(key);
    }

    /**
     * An owner's objects live in its namespace, whose informer is the only writer of its keys: no races here. The
     * index holds the key string the store answers, which a {@link LeanCache} store keeps anyway.
     */
    private void index(R before, R after) {
        if (ownerKind == null) {
            return;
        }
        Optional<String> was = before == null ? Optional.empty() : owner(before, ownerKind);
        Optional<String> is = after == null ? Optional.empty() : owner(after, ownerKind);
        String key = items.getKey(after != null ? after : before);
        if (was.equals(is)) {
            is.ifPresent(o -> byOwner.computeIfAbsent(o, k -> ConcurrentHashMap.newKeySet())
                    .add(key));
            return;
        }
        was.ifPresent(o -> byOwner.computeIfPresent(o, (k, keys) -> {
            keys.remove(key);
            return keys.isEmpty() ? null : keys;
        }));
        is.ifPresent(o ->
                byOwner.computeIfAbsent(o, k -> ConcurrentHashMap.newKeySet()).add(key));
    }

    private void tell(R before, R after) {
        for (BiConsumer<R, R> listener : listeners) {
            try {
                listener.accept(before, after);
            } catch (RuntimeException e) {
                if (listenerFailures.getAndIncrement() == 0) {
                    LOG.error(
                            "A reader of the shared {} store failed on a change (counted, logged once)",
                            (after != null ? after : before).getKind(),
                            e);
                }
            }
        }
    }
}
