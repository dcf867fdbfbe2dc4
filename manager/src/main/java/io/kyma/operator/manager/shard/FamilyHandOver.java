package io.kyma.operator.manager.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.micrometer.core.instrument.Counter;

/**
 * The {@link ShardRebalancer}'s steps of the {@link ShardDrain} handshake, a family (a Kyma and its components, or a
 * Run) at a time: asking the replica of its shard to let it go, handing it to its own shard once the whole family has
 * answered, and taking back a component's drain no hand-over stands behind. Each step is a guarded write, counted by
 * resource; one that fails changes nothing, and the next check looks again.
 */
final class FamilyHandOver {
    private static final Logger LOG = LoggerFactory.getLogger(FamilyHandOver.class);

    private final KubernetesClient client;
    private final Shards shards;
    private final Function<String, Counter> drains;
    private final Function<String, Counter> moves;

    /**
     * @param drains the counter of drains asked for, by resource
     * @param moves the counter of objects moved to another shard, by resource
     */
    FamilyHandOver(
            KubernetesClient client, Shards shards, Function<String, Counter> drains, Function<String, Counter> moves) {
        this.client = client;
        this.shards = shards;
        this.drains = drains;
        this.moves = moves;
    }

    /**
     * Asks the replica of the object's shard to let it go, if it sits off its own shard and both replicas run; whether
     * it asked.
     */
    boolean start(HasMetadata root, Set<Integer> held) {
        String from = ShardDrain.shard(root);
        if (root.getMetadata().getDeletionTimestamp() != null || !shards.exists(from)) {
            return false; // being deleted, or not one of the shards (the mover takes those)
        }
        int own =
                shards.of(root.getMetadata().getNamespace(), root.getMetadata().getName());
        if (own == Integer.parseInt(from) || !held.contains(own) || !held.contains(Integer.parseInt(from))) {
            return false;
        }
        LOG.info(
                "{} {}/{} belongs on shard {}: asking shard {} to hand it over",
                root.getKind(),
                root.getMetadata().getNamespace(),
                root.getMetadata().getName(),
                own,
                from);
        if (!ask(root, from)) {
            return false; // its components are asked only once the Kyma is: a drain on them alone would be taken back
        }
        if (root instanceof Kyma) {
            components(root, true).stream()
                    .filter(c -> ShardDrain.moves(c, from))
                    .forEach(c -> ask(c, from));
        }
        return true;
    }

    /** The next step of a family being handed over; the objects moved. */
    int finish(HasMetadata root, Set<Integer> held) {
        // the components only once the Kyma has answered: until then there is nothing to decide on them
        List<HasMetadata> components = root instanceof Kyma
                        && ShardDrain.DRAINED.equals(ShardDrain.state(root).orElse(null))
                ? components(root, false)
                : List.of();
        ShardDrain.Decision decision = ShardDrain.decide(root, components);
        String from = ShardDrain.shard(root);
        switch (decision.step()) {
            case ASK -> decision.toAsk().forEach(c -> ask(c, from));
            case HAND_OVER -> {
                int own = shards.of(
                        root.getMetadata().getNamespace(), root.getMetadata().getName());
                // its own shard went down meanwhile: it stays where it is, and only the drain ends
                String to = held.contains(own) ? Integer.toString(own) : from;
                int moved = 0;
                boolean all = true;
                for (HasMetadata component : components) {
                    if (ShardDrain.moves(component, from)) {
                        boolean done = handOver(component, from, to);
                        moved += done ? 1 : 0;
                        all &= done;
                    }
                }
                // the Kyma last, so that its new replica finds its components in its cache; and only once every
                // component went, so that none is left drained behind it (the next check moves the rest first)
                if (all && handOver(root, from, to)) {
                    moved++;
                    LOG.info(
                            "{} {}/{}{}: moved from shard {} to shard {}",
                            root.getKind(),
                            root.getMetadata().getNamespace(),
                            root.getMetadata().getName(),
                            components.isEmpty() ? "" : " and its components",
                            from,
                            to);
                }
                return to.equals(from) ? 0 : moved;
            }
            default -> {
                // waiting for the old shard's answer
            }
        }
        return 0;
    }

    /**
     * Takes back a drain label no hand-over stands behind, if the component still carries {@code value}; whether it
     * did.
     */
    boolean withdraw(HasMetadata component, String value) {
        return patch(component, ShardDrain.withdraw(value));
    }

    private boolean ask(HasMetadata object, String from) {
        if (patch(object, ShardDrain.request(from))) {
            drains.apply(resource(object)).increment();
            return true;
        }
        return false;
    }

    private boolean handOver(HasMetadata object, String from, String to) {
        boolean done = patch(object, ShardDrain.handOver(from, to));
        if (done && !to.equals(from)) {
            moves.apply(resource(object)).increment();
        }
        return done;
    }

    /** A guarded write: false if the object changed meanwhile or the write failed; the next step looks again. */
    private boolean patch(HasMetadata object, String patch) {
        try {
            // the object in hand, so that the client sends the patch without reading the object first
            client.resource(object).patch(PatchContext.of(PatchType.JSON), patch);
            return true;
        } catch (KubernetesClientException e) {
            LOG.debug(
                    "{} {}/{}: not written ({}), looked at again",
                    object.getKind(),
                    object.getMetadata().getNamespace(),
                    object.getMetadata().getName(),
                    e.getMessage());
            return false;
        }
    }

    /**
     * A Kyma's components, by its label, as lean copies (anyone may write that label, on objects of any size). Read
     * from etcd when the hand-over is decided on them (a component created just now must not be left behind), else
     * from the API server's watch cache.
     */
    private List<HasMetadata> components(HasMetadata kyma, boolean fromCache) {
        List<HasMetadata> components = new ArrayList<>();
        StreamedList.each(
                client,
                HelmComponent.class,
                Optional.of(kyma.getMetadata().getNamespace()),
                Labels.KYMA + "=" + kyma.getMetadata().getName(),
                fromCache ? StreamedList.Source.WATCH_CACHE : StreamedList.Source.PAGES,
                components::add);
        return components;
    }

    private static String resource(HasMetadata object) {
        return object instanceof Kyma ? "kymas" : object instanceof Run ? "runs" : "helmcomponents";
    }
}
