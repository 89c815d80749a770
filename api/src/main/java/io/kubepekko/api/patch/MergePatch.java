package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;

import java.util.Iterator;
import java.util.Map;

/** RFC 7386 JSON Merge Patch (placeholder until the patch work lands). */
public final class MergePatch {
    private MergePatch() {}

    public static JsonNode parse(byte[] body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw ApiStatus.badRequest(e.getMessage()).exception();
        }
    }

    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.MAPPER.createObjectNode();
        Iterator<Map.Entry<String, JsonNode>> it = patch.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), apply(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }
}
