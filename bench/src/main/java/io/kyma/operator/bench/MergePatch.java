package io.kyma.operator.bench;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON merge patch (RFC 7386) that turns one JSON object into another: members added or changed with their new
 * value, members removed as {@code null}, objects compared member by member and anything else (arrays included)
 * replaced whole when it differs.
 */
final class MergePatch {
    private MergePatch() {}

    /**
     * @param before the object as it is; {@code null} or not an object is treated as empty
     * @param after the object as it should be
     * @return the patch; empty when nothing differs
     */
    static ObjectNode diff(JsonNode before, JsonNode after) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        boolean beforeIsObject = before != null && before.isObject();
        if (beforeIsObject) {
            for (Iterator<String> names = before.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!after.has(name) || after.get(name).isNull()) {
                    if (!before.get(name).isNull()) {
                        patch.putNull(name);
                    }
                }
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> members = after.fields(); members.hasNext(); ) {
            Map.Entry<String, JsonNode> member = members.next();
            JsonNode now = member.getValue();
            if (now.isNull()) {
                continue; // absent and null mean the same in a merge patch; handled above
            }
            JsonNode was = beforeIsObject ? before.get(member.getKey()) : null;
            if (now.isObject() && was != null && was.isObject()) {
                ObjectNode inner = diff(was, now);
                if (!inner.isEmpty()) {
                    patch.set(member.getKey(), inner);
                }
            } else if (!now.equals(was)) {
                patch.set(member.getKey(), now);
            }
        }
        return patch;
    }
}
