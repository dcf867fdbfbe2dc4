package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.kyma.operator.manager.config.LeaderSettings;
import io.kyma.operator.manager.metrics.OperatorMetrics;

/**
 * Sharding as the runtime sees it: what a replica runs beside its controllers (the assigner of shard labels, and with
 * leader election the mover), and what it changes in each controller (its informers select the replica's shard; a
 * drain label is a change to reconcile, answered by {@link #responder()}). Unsharded, all of it is a no-op.
 */
public final class Sharding {
    private final Shards shards;
    private final Optional<ShardAssigner> assigner;
    private final Optional<ShardMover> mover;

    /**
     * @param leases where the shards' Leases are, when the replicas elect leaders; without it nothing is moved
     * @param leading whether this replica leads its shard
     */
    public Sharding(
            KubernetesClient client,
            Shards shards,
            Optional<Leases> leases,
            Optional<String> namespace,
            Clock clock,
            BooleanSupplier leading,
            OperatorMetrics metrics) {
        this.shards = shards;
        this.assigner = shards.sharded()
                ? Optional.of(new ShardAssigner(client, shards, metrics::shardAssignments, clock))
                : Optional.empty();
        // with leader election each shard's Lease says whether it runs; the leader of the lowest live shard moves
        // the objects of shards that are down, and hands objects on a live shard other than their own to theirs
        this.mover = shards.sharded() && leases.isPresent()
                ? Optional.of(new ShardMover(
                        client,
                        shards,
                        leases.get().prefix(),
                        leases.get().namespace(),
                        namespace,
                        clock,
                        leading,
                        metrics::shardMoves,
                        metrics::shardDrains))
                : Optional.empty();
        for (String resource : List.of("kymas", "runs", "helmcomponents")) {
            metrics.shardAssignments(resource); // every series from the start, at zero when unsharded
            metrics.shardMoves(resource);
            metrics.shardDrains(resource);
        }
        metrics.gauge(
                "kyma_operator_shard",
                shards,
                s -> 1,
                "shard",
                Integer.toString(shards.id()),
                "shards",
                Integer.toString(shards.count()));
    }

    /** The shards' Leases: named {@code <prefix>-shard-<id>}, in {@code namespace}. */
    public record Leases(String prefix, String namespace) {
        /** The Leases of leader election, if replicas elect leaders; in the operator's namespace unless one is set. */
        public static Optional<Leases> of(LeaderSettings leader, KubernetesClient client) {
            return leader.elect()
                    ? Optional.of(new Leases(
                            leader.id(),
                            leader.namespace()
                                    .orElseGet(() -> client.getConfiguration().getNamespace())))
                    : Optional.empty();
        }
    }

    public void start(Optional<String> namespace) {
        assigner.ifPresent(a -> a.start(namespace));
        mover.ifPresent(ShardMover::start);
    }

    /**
     * Makes a controller's informers select this replica's shard, and lets a drain label through as a change.
     *
     * @param finalizer the controller's finalizer, or null
     */
    public <P extends HasMetadata> void configure(ControllerConfigurationOverrider<P> overrider, String finalizer) {
        if (shards.sharded()) {
            overrider.withLabelSelector(shards.selector());
            // a drain changes a label only, which the generation does not show: this filter lets it through too
            overrider.withGenerationAware(false);
            overrider.withOnUpdateFilter(ShardDrain.updates(finalizer));
        }
    }

    /** How a reconcile answers a drain label. */
    public ShardDrain.Responder responder() {
        return shards.sharded() ? ShardDrain::answer : ShardDrain.Responder.NONE;
    }

    public void close() {
        assigner.ifPresent(ShardAssigner::close);
        mover.ifPresent(ShardMover::close);
    }
}
