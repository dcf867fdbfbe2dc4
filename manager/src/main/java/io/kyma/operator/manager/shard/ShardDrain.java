package io.kyma.operator.manager.shard;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunPhase;
import io.kyma.operator.common.status.ApiFailure;
import io.kyma.operator.common.status.FailureClass;

/**
 * The handshake that hands an object from one live shard to another (after {@code --shards} was raised, or when a
 * shard that was down is back), so that two replicas never reconcile it at once:
 * <ol>
 * <li>the mover asks: label {@link Labels#SHARD_DRAIN} {@value #REQUESTED} on the Kyma or Run and on each of the
 * Kyma's components;</li>
 * <li>the replica of their shard answers in its next reconcile of each: it stops working on the object (from then on
 * every reconcile of it does nothing) and sets the label to {@value #DRAINED};</li>
 * <li>once the whole family has answered, the mover writes the new shard on the components, then on their Kyma, and
 * takes the drain label off: the new shard's informers see them, the old shard's drop them.</li>
 * </ol>
 * Each write tests the labels it expects, so that a stale read, another mover or a move off a dead shard in between
 * makes it fail instead of doing harm.
 */
public final class ShardDrain {
    private static final Logger LOG = LoggerFactory.getLogger(ShardDrain.class);
    public static final String REQUESTED = Labels.SHARD_DRAIN_REQUESTED_VALUE;
    public static final String DRAINED = Labels.SHARD_DRAIN_DRAINED_VALUE;
    private static final String SHARD_PATH = "/metadata/labels/" + Labels.SHARD.replace("/", "~1");
    private static final String DRAIN_PATH = "/metadata/labels/" + Labels.SHARD_DRAIN.replace("/", "~1");

    /** What a replica does with a primary it is about to reconcile. */
    public enum Answer {
        /** Not being handed over: reconcile it. */
        RECONCILE,
        /** Being handed over, and this replica has said it stopped: do nothing. */
        STOPPED,
        /** Being handed over, but the answer could not be written: do nothing, and look again shortly. */
        RETRY
    }

    /** How a replica answers drains; unsharded, it never sees one. */
    @FunctionalInterface
    public interface Responder {
        Responder NONE = (resource, client) -> Answer.RECONCILE;

        /** @param client the client to answer with, asked for only when there is something to write */
        Answer answer(HasMetadata resource, Supplier<KubernetesClient> client);
    }

    private ShardDrain() {}

    /** The sharded replica's answer: stop at a drain, and say so once. */
    public static Answer answer(HasMetadata resource, Supplier<KubernetesClient> client) {
        Optional<String> drain = state(resource);
        if (drain.isEmpty()) {
            return Answer.RECONCILE;
        }
        if (drain.get().equals(DRAINED)) {
            return Answer.STOPPED;
        }
        if (!drain.get().equals(REQUESTED)) {
            // Anyone who may edit the object may write the label: only the protocol's values act. A Kyma, and a
            // Run still running, say it in their status (ShardLabels), and a running Run is reconciled up to ten
            // times a second: for those at DEBUG. A component or an ended Run has no status to say it in.
            String line = "{} {}/{}: ignoring the label {}={}, which is not a step of the hand-over";
            Object[] args = {
                resource.getKind(),
                resource.getMetadata().getNamespace(),
                resource.getMetadata().getName(),
                Labels.SHARD_DRAIN,
                drain.get()
            };
            if (saidInStatus(resource)) {
                LOG.debug(line, args);
            } else {
                LOG.info(line, args);
            }
            return Answer.RECONCILE;
        }
        try {
            client.get().resource(resource).patch(PatchContext.of(PatchType.JSON), acknowledge(shard(resource)));
            LOG.debug(
                    "{} {}/{}: stopped, handed back for its move off shard {}",
                    resource.getKind(),
                    resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(),
                    shard(resource));
            return Answer.STOPPED;
        } catch (KubernetesClientException e) {
            FailureClass kind = ApiFailure.classify(e);
            if (kind == FailureClass.GONE || kind == FailureClass.SPEC) {
                // gone, or its labels changed meanwhile (moved, or the drain withdrawn: the patch's test fails with
                // 422): the next event says how
                return Answer.STOPPED;
            }
            LOG.info(
                    "{} {}/{}: could not answer the drain of shard {} (tried again shortly): {}",
                    resource.getKind(),
                    resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(),
                    shard(resource),
                    e.getMessage());
            return Answer.RETRY;
        }
    }

    /** Whether the object's status reports an unknown drain value: a Kyma's does, and a Run's until it ends. */
    private static boolean saidInStatus(HasMetadata resource) {
        if (resource instanceof Kyma) {
            return true;
        }
        if (resource instanceof Run run) {
            var phase = run.getStatus() == null ? null : run.getStatus().getPhase();
            return phase != RunPhase.SUCCEEDED && phase != RunPhase.FAILED;
        }
        return false;
    }

    /**
     * Which changes of a primary a sharded controller reconciles: those JOSDK lets through when it follows the
     * generation (a new generation, the finalizer to add, the deletion) and also a drain asked for or withdrawn, which
     * changes a label only. Used with generation awareness off, so that this filter alone decides.
     *
     * @param finalizer the controller's finalizer, or null if it has none
     */
    public static <R extends HasMetadata> OnUpdateFilter<R> updates(String finalizer) {
        return (now, before) -> {
            Long generation = before.getMetadata().getGeneration();
            boolean newGeneration = generation == null
                    || generation
                            < Optional.ofNullable(now.getMetadata().getGeneration())
                                    .orElse(generation);
            boolean finalizerToAdd =
                    finalizer != null && (!now.hasFinalizer(finalizer) || !before.hasFinalizer(finalizer));
            boolean deleted = !before.isMarkedForDeletion() && now.isMarkedForDeletion();
            boolean drain = !Objects.equals(state(now), state(before));
            return newGeneration || finalizerToAdd || deleted || drain;
        };
    }

    /** Whether a drain label value is a step of the hand-over; anything else is ignored. */
    static boolean isStep(String value) {
        return REQUESTED.equals(value) || DRAINED.equals(value);
    }

    /** The object's drain label, if it is being handed over. */
    public static Optional<String> state(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return Optional.ofNullable(labels == null ? null : labels.get(Labels.SHARD_DRAIN));
    }

    /** The object's shard label, or null. */
    static String shard(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? null : labels.get(Labels.SHARD);
    }

    /** The mover's request to the replica of shard {@code from}; fails if the object is on another shard by now. */
    static String request(String from) {
        return "[" + test(SHARD_PATH, from) + ",{\"op\":\"add\",\"path\":\"" + DRAIN_PATH + "\",\"value\":\""
                + REQUESTED + "\"}]";
    }

    /** The answer of the replica of shard {@code from}; fails unless the object is still asked and still on it. */
    static String acknowledge(String from) {
        return "[" + test(SHARD_PATH, from) + "," + test(DRAIN_PATH, REQUESTED) + ",{\"op\":\"replace\",\"path\":\""
                + DRAIN_PATH + "\",\"value\":\"" + DRAINED + "\"}]";
    }

    /** The move to shard {@code to} of an object whose shard {@code from} has stopped; fails otherwise. */
    static String handOver(String from, String to) {
        return "[" + test(SHARD_PATH, from) + "," + test(DRAIN_PATH, DRAINED) + ",{\"op\":\"replace\",\"path\":\""
                + SHARD_PATH + "\",\"value\":\"" + to + "\"},{\"op\":\"remove\",\"path\":\"" + DRAIN_PATH + "\"}]";
    }

    /** Takes back a drain that no hand-over stands behind; fails if the label changed meanwhile. */
    static String withdraw(String value) {
        return "[" + test(DRAIN_PATH, value) + ",{\"op\":\"remove\",\"path\":\"" + DRAIN_PATH + "\"}]";
    }

    private static String test(String path, String value) {
        return "{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\"" + value + "\"}";
    }

    /**
     * Whether a member of a family moves with it: on its shard, and not being deleted. A component being deleted is
     * reconciled by no controller (the HelmComponent controller has no finalizer), so it would never answer a drain;
     * a finalizer of someone else's may keep it for ever. It stays where it is until it goes.
     */
    static boolean moves(HasMetadata component, String from) {
        return Objects.equals(shard(component), from) && component.getMetadata().getDeletionTimestamp() == null;
    }

    /** What the mover does next with a family being handed over. */
    enum Step {
        /** The replica of its shard has not answered for all of it yet. */
        WAIT,
        /** Some of the family on the shard were not asked (created after the request): ask them first. */
        ASK,
        /** Every one has answered: write the new shard. */
        HAND_OVER
    }

    /**
     * @param step what to do
     * @param toAsk for {@link Step#ASK}, the members not asked yet
     */
    record Decision(Step step, List<HasMetadata> toAsk) {}

    /**
     * The next step for a Kyma or Run with a drain label and its components (none for a Run): the components on its
     * shard move with it, and only once its replica answered for all of them.
     */
    static Decision decide(HasMetadata root, List<? extends HasMetadata> components) {
        if (!DRAINED.equals(state(root).orElse(null))) {
            return new Decision(Step.WAIT, List.of());
        }
        String from = shard(root);
        List<? extends HasMetadata> onShard =
                components.stream().filter(c -> moves(c, from)).toList();
        // a value other than the protocol's (written by hand) counts as not asked: asking overwrites it
        List<HasMetadata> unasked = onShard.stream()
                .filter(c -> !isStep(state(c).orElse(null)))
                .map(c -> (HasMetadata) c)
                .toList();
        if (!unasked.isEmpty()) {
            return new Decision(Step.ASK, unasked);
        }
        boolean answered = onShard.stream().allMatch(c -> DRAINED.equals(state(c).orElse(null)));
        return new Decision(answered ? Step.HAND_OVER : Step.WAIT, List.of());
    }
}
