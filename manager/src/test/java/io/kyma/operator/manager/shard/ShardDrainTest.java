package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.testing.Crds;

/** The mover's decisions on a family being handed from one live shard to another, and the guarded writes. */
class ShardDrainTest {
    @Test
    void nothingMovesBeforeTheOldShardHasAnsweredForTheKyma() {
        Kyma asked = kyma("0", ShardDrain.REQUESTED);
        assertThat(ShardDrain.decide(asked, List.of(component("c1", "0", ShardDrain.DRAINED)))
                        .step())
                .isEqualTo(ShardDrain.Step.WAIT);
    }

    @Test
    void componentsCreatedAfterTheRequestAreAskedBeforeAnythingMoves() {
        HelmComponent late = component("late", "0", null);
        ShardDrain.Decision decision = ShardDrain.decide(
                kyma("0", ShardDrain.DRAINED), List.of(component("c1", "0", ShardDrain.DRAINED), late));
        assertThat(decision.step()).isEqualTo(ShardDrain.Step.ASK);
        assertThat(decision.toAsk()).containsExactly(late);
    }

    @Test
    void aComponentWithADrainValueWrittenByHandIsAskedLikeOneNeverAsked() {
        ShardDrain.Decision decision = ShardDrain.decide(
                kyma("0", ShardDrain.DRAINED),
                List.of(component("c1", "0", "stop-forever"), component("c2", "0", ShardDrain.DRAINED)));
        assertThat(decision.step()).isEqualTo(ShardDrain.Step.ASK);
        assertThat(decision.toAsk()).extracting(c -> c.getMetadata().getName()).containsExactly("c1");
    }

    @Test
    void aComponentStillWorkedOnHoldsTheFamily() {
        assertThat(ShardDrain.decide(
                                kyma("0", ShardDrain.DRAINED),
                                List.of(
                                        component("c1", "0", ShardDrain.DRAINED),
                                        component("c2", "0", ShardDrain.REQUESTED)))
                        .step())
                .isEqualTo(ShardDrain.Step.WAIT);
    }

    @Test
    void aComponentBeingDeletedHoldsNothingUpAndIsNotAsked() {
        HelmComponent going = component("going", "0", ShardDrain.REQUESTED);
        going.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z"); // a finalizer of someone else's keeps it
        HelmComponent unasked = component("going-too", "0", null);
        unasked.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        assertThat(ShardDrain.decide(
                                kyma("0", ShardDrain.DRAINED),
                                List.of(component("c1", "0", ShardDrain.DRAINED), going, unasked))
                        .step())
                .as("no controller reconciles it, so it would never answer")
                .isEqualTo(ShardDrain.Step.HAND_OVER);
    }

    @Test
    void theFamilyMovesOnceEveryMemberOnTheOldShardAnswered() {
        assertThat(ShardDrain.decide(
                                kyma("0", ShardDrain.DRAINED),
                                List.of(component("c1", "0", ShardDrain.DRAINED), component("elsewhere", "2", null)))
                        .step())
                .as("a component on another shard is not the old shard's to answer for")
                .isEqualTo(ShardDrain.Step.HAND_OVER);
        assertThat(ShardDrain.decide(kyma("1", ShardDrain.DRAINED), List.of()).step())
                .as("a Run, or a Kyma with no components yet")
                .isEqualTo(ShardDrain.Step.HAND_OVER);
    }

    @Test
    void eachWriteTestsTheLabelsItExpects() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode request = json.readTree(ShardDrain.request("1"));
        assertThat(request.toString())
                .isEqualTo("[{\"op\":\"test\",\"path\":\"/metadata/labels/kyma-project.io~1shard\","
                        + "\"value\":\"1\"},{\"op\":\"add\",\"path\":\"/metadata/labels/kyma-project.io~1shard-drain\","
                        + "\"value\":\"requested\"}]");
        JsonNode answer = json.readTree(ShardDrain.acknowledge("1"));
        assertThat(answer).hasSize(3);
        assertThat(answer.get(1).get("value").asText()).isEqualTo(ShardDrain.REQUESTED);
        assertThat(answer.get(2).get("value").asText()).isEqualTo(ShardDrain.DRAINED);
        JsonNode handOver = json.readTree(ShardDrain.handOver("1", "3"));
        assertThat(handOver.get(0).get("value").asText()).isEqualTo("1");
        assertThat(handOver.get(1).get("value").asText())
                .as("only once answered")
                .isEqualTo(ShardDrain.DRAINED);
        assertThat(handOver.get(2).get("value").asText()).isEqualTo("3");
        assertThat(handOver.get(3).get("op").asText()).isEqualTo("remove");
    }

    @Test
    void anObjectWithoutADrainIsReconciledAndOneAnsweredIsLeftAlone() {
        assertThat(ShardDrain.answer(component("c", "0", null), () -> {
                    throw new AssertionError("nothing to write");
                }))
                .isEqualTo(ShardDrain.Answer.RECONCILE);
        assertThat(ShardDrain.answer(component("c", "0", ShardDrain.DRAINED), () -> {
                    throw new AssertionError("answered already");
                }))
                .isEqualTo(ShardDrain.Answer.STOPPED);
    }

    @Test
    void aDrainValueTheProtocolDoesNotDefineIsIgnored() {
        assertThat(ShardDrain.answer(component("c", "0", "please-stop"), () -> {
                    throw new AssertionError("nothing to write");
                }))
                .as("a tenant's label does not stop the object")
                .isEqualTo(ShardDrain.Answer.RECONCILE);
    }

    @Test
    void aShardedControllerSeesWhatFollowingTheGenerationShowsAndADrain() {
        var updates = ShardDrain.<Kyma>updates("kyma-project.io/finalizer");
        Kyma before = kyma("0", null);
        before.getMetadata().setGeneration(3L);
        before.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer"));
        Kyma statusOnly = kyma("0", null);
        statusOnly.getMetadata().setGeneration(3L);
        statusOnly.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer"));
        assertThat(updates.accept(statusOnly, before))
                .as("a status or label write of its own")
                .isFalse();
        Kyma asked = kyma("0", ShardDrain.REQUESTED);
        asked.getMetadata().setGeneration(3L);
        asked.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer"));
        assertThat(updates.accept(asked, before)).as("a drain asked for").isTrue();
        assertThat(updates.accept(before, asked)).as("a drain withdrawn").isTrue();
        Kyma edited = kyma("0", null);
        edited.getMetadata().setGeneration(4L);
        edited.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer"));
        assertThat(updates.accept(edited, before)).as("a new generation").isTrue();
        Kyma deleted = kyma("0", null);
        deleted.getMetadata().setGeneration(3L);
        deleted.getMetadata().setFinalizers(List.of("kyma-project.io/finalizer"));
        deleted.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        assertThat(updates.accept(deleted, before)).as("deleted").isTrue();
        Kyma noFinalizer = kyma("0", null);
        noFinalizer.getMetadata().setGeneration(3L);
        assertThat(updates.accept(noFinalizer, before))
                .as("its finalizer to add again")
                .isTrue();
        assertThat(ShardDrain.<Kyma>updates(null).accept(noFinalizer, kyma("0", null)))
                .as("a controller without a finalizer, no generation before")
                .isTrue();
    }

    @Test
    void theShardingPageStatesTheMoversLimitsAsTheCodeHasThem() throws Exception {
        String readme = Files.readString(Crds.repositoryRoot().resolve("docs/sharding.md"))
                .replaceAll("\\s+", " ");
        assertThat(readme)
                .contains("At most " + ShardRebalancer.IN_FLIGHT + " families are handed over at once")
                .contains("looks for new ones every " + ShardRebalancer.SCAN.toSeconds() + " s")
                .contains("and every " + ShardRebalancer.RESCAN.toSeconds() + " s otherwise")
                .contains("A hand-over costs three label writes per object");
    }

    private static Kyma kyma(String shard, String drain) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withNamespace("pb")
                .withName("k")
                .withLabels(labels(shard, drain))
                .build());
        return kyma;
    }

    private static HelmComponent component(String name, String shard, String drain) {
        HelmComponent component = new HelmComponent();
        Map<String, String> labels = labels(shard, drain);
        labels.put(Labels.KYMA, "k");
        component.setMetadata(new ObjectMetaBuilder()
                .withNamespace("pb")
                .withName(name)
                .withLabels(labels)
                .build());
        return component;
    }

    private static Map<String, String> labels(String shard, String drain) {
        Map<String, String> labels = new HashMap<>();
        labels.put(Labels.SHARD, shard);
        if (drain != null) {
            labels.put(Labels.SHARD_DRAIN, drain);
        }
        return labels;
    }
}
