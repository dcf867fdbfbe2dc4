package io.kyma.operator.run;

import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The body of a start request, as the job service receives it. Its size is bounded ({@link #MAX_BYTES}) and counted
 * in the call budget while the call is out: the schema bounds each parameter, but JSON writes a control character as
 * six bytes, so the encoded body can be several times the parameters' length.
 */
final class StartBody {
    /** The largest start body sent: the schema's most parameters, in plain text, fit. */
    static final int MAX_BYTES = 512 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private StartBody() {}

    static byte[] encode(String name, Map<String, String> params, String idempotencyKey) {
        try {
            return JSON.writeValueAsBytes(JSON.createObjectNode()
                    .put("name", name)
                    .put("idempotencyKey", idempotencyKey)
                    .set("params", JSON.valueToTree(params)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always encodes", e);
        }
    }
}
