package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.api.Labels;

class RelabelerTest {
    private static final String SHARD = "/metadata/labels/" + Labels.SHARD.replace("/", "~1");
    private static final String DRAIN = "/metadata/labels/" + Labels.SHARD_DRAIN.replace("/", "~1");

    private static List<Map<String, String>> ops(String patch) throws JsonProcessingException {
        return new ObjectMapper().readValue(patch, new TypeReference<>() {});
    }

    @Test
    void aMoveReplacesTheShardOnlyIfTheObjectIsStillOnTheOldOne() throws JsonProcessingException {
        assertThat(ops(Relabeler.patch("5", 1, false)))
                .containsExactly(
                        Map.of("op", "test", "path", SHARD, "value", "5"),
                        Map.of("op", "replace", "path", SHARD, "value", "1"));
    }

    @Test
    void aMoveEndsAHandOverTheDeadShardWasAskedFor() throws JsonProcessingException {
        assertThat(ops(Relabeler.patch("blue", 0, true)))
                .containsExactly(
                        Map.of("op", "test", "path", SHARD, "value", "blue"),
                        Map.of("op", "replace", "path", SHARD, "value", "0"),
                        Map.of("op", "remove", "path", DRAIN));
    }

    @Test
    void onlyANumberBelowTheMostShardsOfAnyFleetIsAFleetShard() {
        assertThat(GoneShardLabels.fleetShard("0")).isTrue();
        assertThat(GoneShardLabels.fleetShard(Integer.toString(Shards.MAX - 1))).isTrue();
        assertThat(GoneShardLabels.fleetShard(Integer.toString(Shards.MAX))).isFalse();
        assertThat(GoneShardLabels.fleetShard("07"))
                .as("no informer selects it")
                .isFalse();
        assertThat(GoneShardLabels.fleetShard("blue")).isFalse();
    }
}
