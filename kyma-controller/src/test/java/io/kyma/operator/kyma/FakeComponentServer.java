package io.kyma.operator.kyma;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaStatus;

/**
 * An API server for the Kyma controller's writes, holding HelmComponents by name as the real one would: creates
 * refused with 409 for a taken name, restores refused with 409 when based on an older version and applied with JSON
 * merge patch's rules, deletes refused with 409 when their resourceVersion precondition is not the object's and
 * leaving an object with finalizers in place, marked. Every request is recorded.
 */
final class FakeComponentServer implements KymaWrites {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    final Map<String, HelmComponent> objects = new LinkedHashMap<>();
    /** Requests in order: "create x", "get x", "restore x", "delete x". */
    final List<String> requests = new ArrayList<>();

    final List<String> created = new ArrayList<>();
    final List<String> deleted = new ArrayList<>();
    final Map<String, ChildDrift.Restore> restored = new HashMap<>();
    KubernetesClientException failCreates;
    KubernetesClientException failRestores;
    KubernetesClientException failDeletes;
    KymaStatus lastStatus;
    /** What a mutating webhook does to every component created or restored, after the write: nothing by default. */
    Consumer<HelmComponent> admission = c -> {};
    /**
     * The uid of the API server's Kyma of each name (null: there is none); a name not in here is a live Kyma of a uid
     * no test uses, so that nothing is adopted from a Kyma a test did not say is gone.
     */
    final Map<String, String> liveKymas = new HashMap<>();

    int statusWrites;
    /** The creation time of the objects this server creates. */
    String now = "2026-01-01T00:00:00Z";

    private long version = 100;

    /** Puts {@code component} in place as if it had been made earlier, with a version of its own. */
    HelmComponent put(HelmComponent component) {
        HelmComponent held = JSON.clone(component);
        held.getMetadata().setResourceVersion(Long.toString(++version));
        objects.put(held.getMetadata().getName(), held);
        return JSON.clone(held);
    }

    /** The object as JSON, for comparing what was with what is. */
    static String json(HelmComponent component) {
        return component == null ? null : JSON.asJson(component);
    }

    HelmComponent object(String name) {
        return objects.get(name);
    }

    long requests(String verb) {
        return requests.stream().filter(r -> r.startsWith(verb + " ")).count();
    }

    @Override
    public HelmComponent create(HelmComponent desired) {
        String name = desired.getMetadata().getName();
        requests.add("create " + name);
        if (failCreates != null) {
            throw failCreates;
        }
        if (objects.containsKey(name)) {
            throw failure(409, "AlreadyExists");
        }
        HelmComponent made = JSON.clone(desired);
        made.getMetadata().setUid("uid-of-" + name + "-" + version);
        made.getMetadata().setCreationTimestamp(now);
        admission.accept(made);
        made.getMetadata().setResourceVersion(Long.toString(++version));
        objects.put(name, made);
        created.add(name);
        return JSON.clone(made);
    }

    @Override
    public HelmComponent get(String namespace, String name) {
        requests.add("get " + name);
        HelmComponent found = objects.get(name);
        return found == null ? null : JSON.clone(found);
    }

    @Override
    public HelmComponent restore(HelmComponent existing, ChildDrift.Restore restore) {
        String name = existing.getMetadata().getName();
        requests.add("restore " + name);
        if (failRestores != null) {
            throw failRestores;
        }
        HelmComponent held = objects.get(name);
        if (held == null) {
            throw failure(404, "NotFound");
        }
        if (restore.resourceVersion() != null
                && !Objects.equals(restore.resourceVersion(), held.getMetadata().getResourceVersion())) {
            throw failure(409, "Conflict");
        }
        restored.put(name, restore);
        Map<String, String> labels = held.getMetadata().getLabels() == null
                ? new HashMap<>()
                : new HashMap<>(held.getMetadata().getLabels());
        labels.putAll(restore.labels());
        held.getMetadata().setLabels(labels);
        HelmComponentSpec spec = new HelmComponentSpec();
        spec.setKyma(restore.spec().getKyma());
        spec.setModule(restore.spec().getModule());
        spec.setVersion(restore.spec().getVersion());
        held.setSpec(spec);
        if (restore.owners() != null) {
            held.getMetadata().setOwnerReferences(new ArrayList<>(restore.owners()));
        }
        admission.accept(held);
        held.getMetadata().setResourceVersion(Long.toString(++version));
        return JSON.clone(held);
    }

    @Override
    public Optional<String> liveUid(String namespace, String name) {
        requests.add("get kyma " + name);
        return liveKymas.containsKey(name) ? Optional.ofNullable(liveKymas.get(name)) : Optional.of("uid-unknown");
    }

    @Override
    public void delete(HelmComponent component) {
        String name = component.getMetadata().getName();
        requests.add("delete " + name);
        if (failDeletes != null) {
            throw failDeletes;
        }
        HelmComponent held = objects.get(name);
        if (held == null) {
            return; // gone already: done
        }
        String precondition = component.getMetadata().getResourceVersion();
        if (precondition != null && !precondition.equals(held.getMetadata().getResourceVersion())) {
            throw failure(409, "Conflict"); // the precondition: another object, or a later version of it
        }
        deleted.add(name);
        if (held.getMetadata().getFinalizers() == null
                || held.getMetadata().getFinalizers().isEmpty()) {
            objects.remove(name);
        } else if (held.getMetadata().getDeletionTimestamp() == null) {
            held.getMetadata().setDeletionTimestamp(now);
            held.getMetadata().setResourceVersion(Long.toString(++version));
        }
    }

    @Override
    public void status(Kyma kyma, KymaStatus status) {
        lastStatus = status;
        statusWrites++;
    }

    static KubernetesClientException failure(int code, String reason) {
        return new KubernetesClientException(
                new StatusBuilder().withCode(code).withReason(reason).build());
    }
}
