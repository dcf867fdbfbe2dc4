package io.kyma.operator.manager.shard;

import java.util.function.Predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Listable;

/**
 * Lists a page at a time, so that a look over the whole fleet (40,000 Kymas and their 720,000 components) never holds
 * more than one page of objects. The pages are read from etcd, one consistent snapshot through the continue token: a
 * list from the API server's watch cache ({@code resourceVersion=0}) ignores the limit and answers whole.
 */
final class Pages {
    /** Objects per page. */
    static final long SIZE = 500;

    private Pages() {
    }

    /**
     * A list from the API server's watch cache ({@code resourceVersion=0}), in one piece: for selective lists, which
     * the watch cache answers from memory, where paged from etcd the API server would read every object.
     */
    static io.fabric8.kubernetes.api.model.ListOptions fromWatchCache() {
        return new ListOptionsBuilder().withResourceVersion("0").build();
    }

    /**
     * Hands each object to {@code each} in order until it answers false or the list ends.
     *
     * @return whether the list was read to its end
     */
    static <R extends HasMetadata> boolean each(Listable<? extends KubernetesResourceList<? extends R>> selected,
            Predicate<? super R> each) {
        String next = null;
        do {
            KubernetesResourceList<? extends R> page;
            try {
                page = selected.list(new ListOptionsBuilder().withLimit(SIZE).withContinue(next).build());
            } catch (KubernetesClientException e) {
                // The snapshot the token pointed at was compacted away (after about 5 minutes): the API server's
                // answer carries a token that goes on from the same place on current data, if it can.
                String onward = e.getCode() == 410 && next != null && e.getStatus() != null
                        && e.getStatus().getMetadata() != null ? e.getStatus().getMetadata().getContinue() : null;
                if (onward == null || onward.isEmpty()) {
                    throw e;
                }
                next = onward;
                continue;
            }
            for (R object : page.getItems()) {
                if (!each.test(object)) {
                    return false;
                }
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return true;
    }
}
