package io.kyma.operator.manager;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.Operator;

/**
 * The APIs the manager needs, checked against what the API server serves before anything starts: a missing one is
 * named in one line (a CRD not installed, a server too old for Leases), rather than found later by an informer that
 * retries for ever.
 */
final class ServedApis {
    /** A resource by its plural and group version, for example {@code kymas} in {@code inventory.kyma-project.io/v1alpha1}. */
    record Needed(String plural, String groupVersion, String why) {
        @Override
        public String toString() {
            return plural + " (" + groupVersion + ", " + why + ")";
        }
    }

    private ServedApis() {}

    static Needed of(Class<? extends HasMetadata> kind, String why) {
        return new Needed(HasMetadata.getPlural(kind), HasMetadata.getApiVersion(kind), why);
    }

    /**
     * Checks that the API server serves the kind of every controller of {@code operator}, Events, and Leases when
     * {@code leases}.
     *
     * @throws MissingApiException naming what is missing
     */
    static void require(KubernetesClient client, Operator operator, boolean leases) {
        List<Needed> needed = new ArrayList<>();
        operator.getRegisteredControllers()
                .forEach(c -> needed.add(of(c.getConfiguration().getResourceClass(), "its controller's kind")));
        needed.add(of(Event.class, "the events it tells"));
        if (leases) {
            needed.add(of(Lease.class, "leader election and shards"));
        }
        List<Needed> missing = missing(client, needed);
        if (!missing.isEmpty()) {
            throw new MissingApiException(missing);
        }
    }

    /** Those of {@code needed} the API server does not serve, in order. */
    static List<Needed> missing(KubernetesClient client, List<Needed> needed) {
        Map<String, APIResourceList> served = new LinkedHashMap<>();
        List<Needed> missing = new ArrayList<>();
        for (Needed n : needed) {
            APIResourceList resources = served.computeIfAbsent(n.groupVersion(), gv -> resources(client, gv));
            boolean found = resources != null
                    && resources.getResources().stream()
                            .map(APIResource::getName)
                            .anyMatch(n.plural()::equals);
            if (!found) {
                missing.add(n);
            }
        }
        return missing;
    }

    private static APIResourceList resources(KubernetesClient client, String groupVersion) {
        try {
            return client.getApiResources(groupVersion);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Thrown when the API server lacks an API the manager needs. */
    static final class MissingApiException extends IllegalStateException {
        MissingApiException(List<Needed> missing) {
            super("the API server does not serve "
                    + String.join("; ", missing.stream().map(Needed::toString).toList())
                    + " (install the CRDs with `make install`, or see docs/compatibility.md)");
        }
    }
}
