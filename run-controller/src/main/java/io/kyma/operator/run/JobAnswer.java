package io.kyma.operator.run;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one typed model of a job service's answer body. Only the top-level fields of the job API are read, each at its
 * own depth and of its own type ({@code error} may be text or an object with a text {@code message}); unknown fields
 * are ignored. The body is decoded leniently (bytes that are not UTF-8 become U+FFFD) and parsed within limits of
 * nesting, string length and duplicate fields. A body that is no JSON object, or names none of the job API's fields,
 * is {@code null}: no job service spoke. A job-API answer with a field of the wrong type or a repeated field is
 * {@link #malformed}.
 *
 * @param malformed what makes the answer unusable, or null
 */
record JobAnswer(String id, String state, String log, boolean logTruncated, String error, String malformed) {
    /**
     * Job ids the operator calls: a letter or digit, then letters, digits and {@code . _ : -}; so never {@code .} or
     * {@code ..}, and never a character a path would have to encode.
     */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    static final int MAX_DEPTH = 32;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    static {
        JSON.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_DEPTH)
                        .build());
    }

    /** Whether {@code id} is one the operator calls; see {@link #ID}. */
    static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** The answer in {@code body}, or null if it is not the job API's. */
    static JobAnswer read(byte[] body) {
        JsonNode tree;
        try {
            tree = JSON.readTree(lenient(body));
        } catch (JsonProcessingException e) {
            return String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field")
                    ? new JobAnswer(null, null, null, false, null, "an answer with a field given twice")
                    : null;
        }
        if (tree == null || !tree.isObject() || !(tree.has("id") || tree.has("state") || tree.has("error"))) {
            return null;
        }
        String wrong = null;
        String id = text(tree, "id");
        String state = text(tree, "state");
        String log = text(tree, "log");
        for (String field : new String[] {"id", "state", "log"}) {
            JsonNode value = tree.get(field);
            if (value != null && !value.isNull() && !value.isTextual()) {
                wrong = "an answer whose " + field + " is not text";
            }
        }
        JsonNode truncated = tree.get("logTruncated");
        if (truncated != null && !truncated.isNull() && !truncated.isBoolean()) {
            wrong = "an answer whose logTruncated is not true or false";
        }
        JsonNode error = tree.get("error");
        String message = error == null ? null : error.isTextual() ? error.asText() : text(error, "message");
        return new JobAnswer(id, state, log, truncated != null && truncated.asBoolean(false), message, wrong);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    /** UTF-8, each malformed byte sequence replaced by U+FFFD, as the API server stores text. */
    static String lenient(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }
}
