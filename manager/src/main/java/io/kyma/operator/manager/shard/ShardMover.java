package io.kyma.operator.manager.shard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;
import io.kyma.operator.common.DaemonThreads;
import io.micrometer.core.instrument.Counter;

/**
 * Moves the objects of a shard that is down to the live shards. Each shard's leader renews the shard's Lease; once a
 * Lease has run out ({@link ShardLiveness}) no replica of that shard reconciles any more, and the leader of the
 * lowest live shard relabels the dead shard's Kymas and Runs to the live shard each hashes to
 * ({@link Shards#moveTo}), and each component to its Kyma's. No handshake is needed there: no replica of a dead
 * shard reconciles. Objects on a live shard other than their own (a shard that came back, or one added) are handed
 * over by the {@link ShardRebalancer} through the {@link ShardDrain} handshake, in the same look at the Leases.
 * <p>
 * Objects labelled for a shard that does not exist any more (after {@code --shards} was lowered, or a label written
 * by hand) move the same way, once that shard's Lease, if it has one, has run out too: while the replicas roll to
 * the new count, a replica of the old count may still lead that shard and reconcile them. A label that names no
 * shard at all (not a number) has no replica that could hold it and moves at once.
 */
public final class ShardMover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardMover.class);

    private final KubernetesClient client;
    private final Shards shards;
    private final String leasePrefix;
    private final String leaseNamespace;
    private final Optional<String> namespace;
    private final Clock clock;
    private final BooleanSupplier leading;
    private final Function<String, Counter> moved;
    private final ShardRebalancer rebalancer;
    /** How often the mover looks at the shards' Leases. */
    public static final Duration CHECK = Duration.ofSeconds(2);
    /** The most labels of shards beyond --shards that one look moves; the rest wait for the next look. */
    static final int GONE_LABELS = 64;
    /** How often to look for objects of shards beyond --shards: a list of every kind, so not at every check. */
    static final Duration GONE_CHECK = Duration.ofSeconds(30);

    private Instant lookedForGone;
    /** Shards of the fleet seen without a Lease, or with one never renewed, since when: see {@link ShardLiveness}. */
    private final Map<Integer, Instant> unrenewedSince = new HashMap<>();

    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("shard-mover"));

    /**
     * @param leasePrefix the leader-election id; shard i's Lease is {@code <prefix>-shard-<i>}
     * @param leading whether this replica leads its shard
     * @param moved the counter of objects moved, by resource
     * @param drains the counter of drains asked for, by resource
     */
    public ShardMover(
            KubernetesClient client,
            Shards shards,
            String leasePrefix,
            String leaseNamespace,
            Optional<String> namespace,
            Clock clock,
            BooleanSupplier leading,
            Function<String, Counter> moved,
            Function<String, Counter> drains) {
        this.client = client;
        this.shards = shards;
        this.leasePrefix = leasePrefix;
        this.leaseNamespace = leaseNamespace;
        this.namespace = namespace;
        this.clock = clock;
        this.leading = leading;
        this.moved = moved;
        this.rebalancer = new ShardRebalancer(client, shards, namespace, clock, drains, moved);
    }

    public void start() {
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        Map<Integer, Lease> leases = leases();
                        moveOnce(leases);
                        rebalanceOnce(leases);
                    } catch (RuntimeException e) {
                        LOG.warn(
                                "could not check or move the shards' objects (tried again in {} s): {}",
                                CHECK.toSeconds(),
                                e.toString());
                    }
                },
                CHECK.toMillis(),
                CHECK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One look at the shards' Leases, moving what a dead shard holds; the number of objects moved. */
    int moveOnce() {
        return moveOnce(leases());
    }

    /** One step of handing objects off their shard to their own ({@link ShardRebalancer}); the objects moved. */
    int rebalanceOnce() {
        return rebalanceOnce(leases());
    }

    private int rebalanceOnce(Map<Integer, Lease> leases) {
        return live(leases).isPresent() ? rebalancer.rebalance(ShardLiveness.held(leases, clock.instant())) : 0;
    }

    /** Each shard's Lease, by shard; a shard without one is missing. Notes the shards never renewed since when. */
    private Map<Integer, Lease> leases() {
        Map<Integer, Lease> leases = new HashMap<>();
        for (int shard = 0; shard < shards.count(); shard++) {
            Lease lease = client.leases()
                    .inNamespace(leaseNamespace)
                    .withName(leaseName(shard))
                    .get();
            if (lease != null) {
                leases.put(shard, lease);
            }
            if (ShardLiveness.renewed(lease)) {
                unrenewedSince.remove(shard);
            } else {
                unrenewedSince.putIfAbsent(shard, clock.instant());
            }
        }
        return leases;
    }

    private Set<Integer> dead(Map<Integer, Lease> leases) {
        return ShardLiveness.dead(leases, unrenewedSince, clock.instant());
    }

    /**
     * The shards a replica holds now, which alone take moved objects, if this replica is the one that moves them: it
     * leads the lowest of them. A shard still starting takes nothing, and holds nothing up.
     */
    private Optional<List<Integer>> live(Map<Integer, Lease> leases) {
        List<Integer> live = List.copyOf(ShardLiveness.held(leases, clock.instant()));
        if (live.isEmpty() || live.get(0) != shards.id() || !leading.getAsBoolean()) {
            return Optional.empty();
        }
        return Optional.of(live);
    }

    private int moveOnce(Map<Integer, Lease> leases) {
        Optional<List<Integer>> alive = live(leases);
        if (alive.isEmpty()) {
            return 0;
        }
        List<Integer> live = alive.get();
        Set<Integer> dead = dead(leases);
        // each label to move off, with the Lease of its shard as read (null: none, or not a shard number)
        Map<String, Lease> from = new TreeMap<>();
        dead.forEach(shard -> from.put(Integer.toString(shard), leases.get(shard)));
        if (lookedForGone == null || !clock.instant().isBefore(lookedForGone.plus(GONE_CHECK))) {
            lookedForGone = clock.instant();
            from.putAll(gone());
        }
        int count = 0;
        for (Map.Entry<String, Lease> shard : from.entrySet()) {
            Optional<Claim> claim = Optional.empty();
            OptionalInt number = Shards.number(shard.getKey());
            // A Lease is created only for a shard of this fleet; beyond --shards only one that exists is held, so a
            // label written by hand cannot make the mover create Leases.
            if (number.isPresent() && (number.getAsInt() < shards.count() || shard.getValue() != null)) {
                // The Lease ran out when it was read; a replica may have taken the shard since. Holding its Lease
                // while the objects move keeps one from taking it halfway, and fails if one took it already.
                claim = claim(number.getAsInt(), shard.getValue());
                if (claim.isEmpty()) {
                    LOG.info(
                            "shard {} was taken by a replica since its Lease was read: its objects stay",
                            shard.getKey());
                    continue;
                }
            }
            try {
                BooleanSupplier held = claim.isPresent() ? claim.get()::renewIfDue : () -> true;
                // components before their Kyma, so that the Kyma's new shard finds them in its cache
                count += move(HelmComponent.class, "helmcomponents", shard.getKey(), live, held);
                count += move(Run.class, "runs", shard.getKey(), live, held);
                count += move(Kyma.class, "kymas", shard.getKey(), live, held);
            } finally {
                claim.ifPresent(Claim::release);
            }
        }
        return count;
    }

    /**
     * Labels of shards beyond {@code --shards} that objects still carry and that no replica leads: no Lease, or one
     * that ran out; and labels that are not a shard number at all. Each with its shard's Lease as read, or null.
     */
    private Map<String, Lease> gone() {
        String[] existing = new String[shards.count()];
        for (int shard = 0; shard < shards.count(); shard++) {
            existing[shard] = Integer.toString(shard);
        }
        Set<String> labels = new TreeSet<>();
        Set<String> others = new TreeSet<>();
        for (Class<? extends HasMetadata> kind : List.of(HelmComponent.class, Run.class, Kyma.class)) {
            labelsBeyond(kind, existing, labels, others);
        }
        labels.addAll(others);
        Map<String, Lease> gone = new TreeMap<>();
        for (String label : labels) {
            if (Shards.number(label).isEmpty()) {
                gone.put(label, null);
                continue;
            }
            int shard = Shards.number(label).getAsInt();
            Lease lease = client.leases()
                    .inNamespace(leaseNamespace)
                    .withName(leaseName(shard))
                    .get();
            if (lease == null
                    || !ShardLiveness.dead(Map.of(shard, lease), clock.instant())
                            .isEmpty()) {
                gone.put(label, lease);
            } else {
                LOG.info(
                        "shard {} is beyond --shards {} but its Lease is held: its objects move once it runs out",
                        shard,
                        shards.count());
            }
        }
        return gone;
    }

    /**
     * Adds the shard labels of {@code kind} other than {@code existing}: those that could name a shard of a fleet
     * (below {@link Shards#MAX}: a shard of an earlier, larger {@code --shards}) to {@code shards}, all of them; any
     * other, which only a hand can have written, to {@code others}, up to {@link #GONE_LABELS}, so that such labels
     * cannot crowd out the shards of a lowered count.
     */
    private <R extends HasMetadata> void labelsBeyond(
            Class<R> kind, String[] existing, Set<String> shards, Set<String> others) {
        // From the API server's watch cache (resourceVersion 0), which answers a selective list from memory: paged
        // from etcd, the API server would read every object to fill a page of the few that match. What it returns
        // is what waits to be moved, which each look moves; it is read an object at a time, since anyone may write
        // the label on objects of any size.
        String selector = Labels.SHARD
                + (existing.length == 0 ? "" : "," + Labels.SHARD + " notin (" + String.join(",", existing) + ")");
        StreamedList.each(client, kind, namespace, selector, StreamedList.Source.WATCH_CACHE, object -> {
            String label = object.getMetadata().getLabels().get(Labels.SHARD);
            if (fleetShard(label)) {
                shards.add(label);
            } else if (others.size() < GONE_LABELS) {
                others.add(label); // the rest at the next look: labels written by hand cannot grow the set unbounded
            }
            return true;
        });
    }

    private String leaseName(int shard) {
        return leasePrefix + "-shard-" + shard;
    }

    /**
     * Takes a dead shard's Lease for the mover: an update of the Lease as it was read (or its creation, if it had
     * none), which the API server refuses if a replica took the shard since. Empty if refused.
     */
    Optional<Claim> claim(int shard, Lease seen) {
        ZonedDateTime now = ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        Lease claimed = seen != null
                ? new LeaseBuilder(seen)
                        .editOrNewSpec()
                        .withHolderIdentity(ShardLiveness.MOVER_PREFIX + shards.id())
                        .withAcquireTime(now)
                        .withRenewTime(now)
                        .withLeaseDurationSeconds(CLAIM_SECONDS)
                        .endSpec()
                        .build()
                : new LeaseBuilder()
                        .withNewMetadata()
                        .withName(leaseName(shard))
                        .withNamespace(leaseNamespace)
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity(ShardLiveness.MOVER_PREFIX + shards.id())
                        .withAcquireTime(now)
                        .withRenewTime(now)
                        .withLeaseDurationSeconds(CLAIM_SECONDS)
                        .endSpec()
                        .build();
        try {
            var leases = client.leases().inNamespace(leaseNamespace);
            return Optional.of(new Claim(
                    seen != null
                            ? leases.resource(claimed).update()
                            : leases.resource(claimed).create()));
        } catch (KubernetesClientException e) {
            LOG.debug("shard {}: its Lease changed since it was read ({})", shard, e.getMessage());
            return Optional.empty();
        }
    }

    /** How long the mover's hold on a dead shard's Lease lasts unless renewed. */
    static final int CLAIM_SECONDS = 15;

    /** The mover's hold on a dead shard's Lease while it moves the shard's objects. */
    final class Claim {
        private Lease lease;

        Claim(Lease lease) {
            this.lease = lease;
        }

        /** Renews the hold when a third of it has passed; false if the Lease was taken from the mover. */
        boolean renewIfDue() {
            Instant renewed = lease.getSpec().getRenewTime().toInstant();
            if (clock.instant().isBefore(renewed.plusSeconds(CLAIM_SECONDS / 3))) {
                return true;
            }
            try {
                lease = client.leases()
                        .inNamespace(leaseNamespace)
                        .resource(new LeaseBuilder(lease)
                                .editSpec()
                                .withRenewTime(ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC))
                                .endSpec()
                                .build())
                        .update();
                return true;
            } catch (KubernetesClientException e) {
                LOG.warn(
                        "lost the hold on Lease {} while moving its objects; the rest stay: {}",
                        lease.getMetadata().getName(),
                        e.getMessage());
                return false;
            }
        }

        /** Gives the Lease up, so that a replica of the shard can take it at once. */
        void release() {
            try {
                client.leases()
                        .inNamespace(leaseNamespace)
                        .resource(new LeaseBuilder(lease)
                                .editSpec()
                                .withHolderIdentity("")
                                .endSpec()
                                .build())
                        .update();
            } catch (KubernetesClientException e) {
                LOG.debug(
                        "Lease {} not given up ({}); it runs out by itself",
                        lease.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }

    /** Whether a label names a shard that some fleet of at most {@link Shards#MAX} shards can have. */
    private static boolean fleetShard(String label) {
        return Shards.number(label).isPresent() && Shards.number(label).getAsInt() < Shards.MAX;
    }

    private <R extends HasMetadata> int move(
            Class<R> kind, String resource, String from, List<Integer> live, BooleanSupplier held) {
        int[] count = {0};
        // Every object of a dead shard: from etcd, a page at a time. A label no fleet has (written by hand, on a few
        // objects): from the watch cache, which answers such a selective list from memory, where paged from etcd it
        // would read the kind's whole collection to fill each page.
        StreamedList.Source source = fleetShard(from) ? StreamedList.Source.PAGES : StreamedList.Source.WATCH_CACHE;
        StreamedList.each(client, kind, namespace, Labels.SHARD + "=" + from, source, object -> {
            if (!held.getAsBoolean()) {
                return false;
            }
            if (moveOne(kind, resource, object, from, live)) {
                count[0]++;
            }
            return true;
        });
        if (count[0] > 0) {
            LOG.info("moved {} {} of shard {}, which is down or gone, to shards {}", count[0], resource, from, live);
        }
        return count[0];
    }

    private <R extends HasMetadata> boolean moveOne(
            Class<R> kind, String resource, R object, String from, List<Integer> live) {
        String ns = object.getMetadata().getNamespace();
        int to = Shards.moveTo(ns, ShardAssigner.ownerName(object), live);
        // only if it is still on the dead shard: a test-and-replace patch fails on any other value
        String patch = "[{\"op\":\"test\",\"path\":\"/metadata/labels/" + Labels.SHARD.replace("/", "~1")
                + "\",\"value\":\"" + from + "\"},{\"op\":\"replace\",\"path\":\"/metadata/labels/"
                + Labels.SHARD.replace("/", "~1") + "\",\"value\":\"" + to + "\"}"
                // a hand-over the dead shard was asked for ends with the move
                + (ShardDrain.state(object).isPresent()
                        ? ",{\"op\":\"remove\",\"path\":\"/metadata/labels/" + Labels.SHARD_DRAIN.replace("/", "~1")
                                + "\"}"
                        : "")
                + "]";
        try {
            // the object in hand: the patch goes out without a read of the object first
            client.resources(kind).resource(object).patch(PatchContext.of(PatchType.JSON), patch);
            moved.apply(resource).increment();
            return true;
        } catch (KubernetesClientException e) {
            LOG.debug(
                    "{} {}/{} not moved: {}", resource, ns, object.getMetadata().getName(), e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
