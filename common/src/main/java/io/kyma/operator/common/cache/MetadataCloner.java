package io.kyma.operator.common.cache;

import java.util.Map;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.config.Cloner;

/**
 * JOSDK's copy of a primary resource before each reconcile, for the kinds kept by a {@link LeanCache}: a new object
 * with a deep copy of the metadata and the same spec and status objects. JOSDK's default copies the whole resource
 * through JSON, twice over the wire format, on every reconcile. The cache already hands every reader the same spec and
 * status objects (it builds only the metadata anew on each read), so the controllers never change those in place; what
 * JOSDK changes on its copy is metadata (finalizers, the resourceVersion). Other kinds go to the default.
 */
public final class MetadataCloner implements Cloner {
    private final Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> kinds;
    private final Cloner fallback;

    /** @param kinds for each kind copied this way, how to make an empty object of it */
    public MetadataCloner(Map<Class<?>, Supplier<? extends CustomResource<?, ?>>> kinds, Cloner fallback) {
        this.kinds = Map.copyOf(kinds);
        this.fallback = fallback;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <R extends HasMetadata> R clone(R object) {
        Supplier<? extends CustomResource<?, ?>> empty = kinds.get(object.getClass());
        if (empty == null || object.getMetadata() == null) {
            return fallback.clone(object);
        }
        CustomResource source = (CustomResource) object;
        CustomResource copy = empty.get();
        copy.setMetadata(new ObjectMetaBuilder(object.getMetadata()).build());
        copy.setSpec(source.getSpec());
        copy.setStatus(source.getStatus());
        return (R) copy;
    }
}
