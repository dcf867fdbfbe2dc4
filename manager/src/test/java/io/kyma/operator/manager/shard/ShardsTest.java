package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;

class ShardsTest {
    private final Shards three = new Shards(3, 1);

    @Test
    void theShardOfANameIsFixedAndTheShardsShareTheNamesEvenly() {
        assertThat(three.of("pb", "kyma-0")).isEqualTo(three.of("pb", "kyma-0"));
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 3000; i++) {
            counts.merge(three.of("pb", "kyma-" + i), 1, Integer::sum);
        }
        assertThat(counts.keySet()).containsExactly(0, 1, 2);
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(900, 1100));
        Shards thousand = new Shards(1000, 0);
        assertThat(thousand.of("team-b", "kyma-0"))
                .as("the namespace is part of the key")
                .isNotEqualTo(thousand.of("pb", "kyma-0"));
    }

    @Test
    void theHashIsPinned() {
        // a change of the hash would hand most objects of a running fleet to another shard.
        // rendezvous: FNV-1a of "namespace/name", mixed with each shard's number; the highest unsigned score wins
        assertThat(three.of("pb", "kyma-0")).isZero();
        assertThat(three.of("pb", "kyma-1")).isEqualTo(1);
        assertThat(three.of("pb", "kyma-2")).isZero();
        Shards thousand = new Shards(1000, 0);
        assertThat(thousand.of("pb", "kyma-0")).isEqualTo(26);
        assertThat(thousand.of("pb", "kyma-1")).isEqualTo(600);
    }

    @Test
    void aNewShardTakesOnlyItsShareAndTheOthersKeepTheirs() {
        Shards four = new Shards(4, 0);
        int moved = 0;
        for (int i = 0; i < 4000; i++) {
            int before = three.of("pb", "kyma-" + i);
            int after = four.of("pb", "kyma-" + i);
            if (after != before) {
                assertThat(after)
                        .as("kyma-" + i + " moves to the new shard or not at all")
                        .isEqualTo(3);
                moved++;
            }
        }
        assertThat(moved).as("about a quarter").isBetween(900, 1100);
        for (int i = 0; i < 300; i++) {
            assertThat(Shards.moveTo("pb", "kyma-" + i, List.of(0, 1, 2)))
                    .as("a move among all shards lands where the hash puts it")
                    .isEqualTo(three.of("pb", "kyma-" + i));
        }
    }

    @Test
    void selectorsAndLimits() {
        assertThat(three.selector()).isEqualTo("kyma-project.io/shard=1");
        assertThat(Shards.unassigned()).isEqualTo("!kyma-project.io/shard");
        assertThat(Shards.NONE.sharded()).isFalse();
        assertThat(three.sharded()).isTrue();
        assertThatThrownBy(() -> new Shards(3, 3)).hasMessageContaining("shard 3 of 3");
        assertThatThrownBy(() -> new Shards(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aComponentGoesWithItsKymaByLabelOrBySpec() {
        ShardAssigner assigner = new ShardAssigner(null, three, r -> null, Clock.systemUTC());
        Kyma kyma = new Kyma();
        kyma.setMetadata(
                new ObjectMetaBuilder().withNamespace("pb").withName("k7").build());
        HelmComponent labelled = component("k7-istio", Map.of(Labels.KYMA, "k7"), null);
        HelmComponent specOnly = component("k7-istio", Map.of(), "k7");
        assertThat(assigner.shardOf(labelled)).isEqualTo(assigner.shardOf(kyma)).isEqualTo(three.of("pb", "k7"));
        assertThat(assigner.shardOf(specOnly)).isEqualTo(three.of("pb", "k7"));
        HelmComponent orphan = component("loose", Map.of(), null);
        assertThat(assigner.shardOf(orphan)).as("no Kyma named: its own name").isEqualTo(three.of("pb", "loose"));
    }

    @Test
    void theObjectsOwnShardLabelsItAtOnceTheOthersOnlyAfterAResync() {
        Instant created = Instant.parse("2026-11-23T10:00:00Z");
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("pb")
                .withName("k7")
                .withCreationTimestamp(created.toString())
                .build());
        int own = three.of("pb", "k7");
        int other = (own + 1) % 3;
        ShardAssigner ownReplica = new ShardAssigner(null, new Shards(3, own), r -> null, Clock.systemUTC());
        ShardAssigner otherReplica = new ShardAssigner(null, new Shards(3, other), r -> null, Clock.systemUTC());
        assertThat(ownReplica.labelsNow(kyma, created)).isTrue();
        assertThat(otherReplica.labelsNow(kyma, created))
                .as("its own replica labels it")
                .isFalse();
        assertThat(otherReplica.labelsNow(kyma, created.plusSeconds(29))).isFalse();
        assertThat(otherReplica.labelsNow(kyma, created.plusSeconds(30)))
                .as("its replica may be down")
                .isTrue();
    }

    @Test
    void aLabelTakenOffAnOldObjectIsWrittenAgainByItsOwnReplicaNotByEvery() {
        Instant created = Instant.parse("2026-11-23T10:00:00Z");
        Instant unlabelled = created.plusSeconds(3600);
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("pb")
                .withName("k7")
                .withCreationTimestamp(created.toString())
                .build());
        int other = (three.of("pb", "k7") + 1) % 3;
        ShardAssigner otherReplica =
                new ShardAssigner(null, new Shards(3, other), r -> null, Clock.fixed(unlabelled, ZoneOffset.UTC));
        otherReplica.seen("kymas", kyma);
        assertThat(otherReplica.labelsNow(kyma, unlabelled, "kymas"))
                .as("an hour old, but seen unlabelled just now")
                .isFalse();
        assertThat(otherReplica.labelsNow(kyma, unlabelled.plusSeconds(30), "kymas"))
                .isTrue();
        otherReplica.close();
    }

    @Test
    void onlyALabelWrittenAsTheOperatorWritesItNamesAShard() {
        assertThat(Shards.number("0")).hasValue(0);
        assertThat(Shards.number("17")).hasValue(17);
        assertThat(Shards.number("999999999")).hasValue(999_999_999);
        // selected by no informer (shard=7), so a replica would never see them: these name no shard
        for (String label : new String[] {"07", "+7", "-1", "7 ", "1e3", "", "blue", "1234567890", null}) {
            assertThat(Shards.number(label)).as(String.valueOf(label)).isEmpty();
        }
        assertThat(three.exists("2")).isTrue();
        assertThat(three.exists("3")).as("beyond --shards").isFalse();
        assertThat(three.exists("02")).isFalse();
    }

    private static HelmComponent component(String name, Map<String, String> labels, String kyma) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withNamespace("pb")
                .withName(name)
                .withLabels(labels)
                .build());
        if (kyma != null) {
            component.setSpec(new HelmComponentSpec());
            component.getSpec().setKyma(kyma);
        }
        return component;
    }
}
