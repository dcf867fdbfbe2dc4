package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class MergePatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void changedAndAddedMembersCarryTheirNewValueRemovedOnesNull() throws Exception {
        assertThat(MergePatch.diff(
                        json("{\"state\":\"failing\",\"message\":\"boom\",\"observedGeneration\":1}"),
                        json("{\"state\":\"retrying\",\"observedGeneration\":1,\"lastTransitionTime\":\"t\"}")))
                .hasToString("{\"message\":null,\"state\":\"retrying\",\"lastTransitionTime\":\"t\"}");
    }

    @Test
    void objectsAreComparedMemberByMemberAndArraysReplacedWhole() throws Exception {
        assertThat(
                        MergePatch.diff(
                                json(
                                        "{\"components\":{\"ready\":1,\"total\":2},\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}"),
                                json(
                                        "{\"components\":{\"ready\":2,\"total\":2},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}")))
                .hasToString(
                        "{\"components\":{\"ready\":2},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}");
    }

    @Test
    void fromNothingThePatchIsTheWholeObjectAndNothingChangedIsEmpty() throws Exception {
        JsonNode status = json("{\"state\":\"pending\",\"components\":{\"ready\":0}}");
        assertThat(MergePatch.diff(null, status)).isEqualTo(status);
        assertThat(MergePatch.diff(status, status).isEmpty()).isTrue();
        assertThat(MergePatch.diff(json("{\"message\":null}"), json("{}")).isEmpty())
                .as("null was absent already")
                .isTrue();
    }
}
