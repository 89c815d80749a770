package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.util.Iterator;
import java.util.Map;

/**
 * RFC 7386 JSON Merge Patch ({@code application/merge-patch+json}): objects merge recursively, a
 * null member deletes, anything else replaces. {@link #parse} applies kube-apiserver's rules for
 * the request body, which only accept a JSON object.
 */
public final class MergePatch {
    private MergePatch() {}

    private static final String DECODE_PREFIX = "error decoding patch: ";

    /**
     * Decodes a merge patch body.
     *
     * @throws ApiException 400 BadRequest: {@code error decoding patch: <Go's JSON error>} for
     *     malformed JSON or a non-object, {@code Invalid JSON Patch} for {@code null}
     */
    public static ObjectNode parse(byte[] patchBody) {
        JsonNode root = GoJson.parse(patchBody, DECODE_PREFIX);
        if (root.isNull()) {
            // Decodes to a nil map, which the json-patch library then rejects as ErrBadJSONPatch.
            throw ApiStatus.badRequest("Invalid JSON Patch").exception();
        }
        if (!root.isObject()) {
            throw ApiStatus.badRequest(
                            DECODE_PREFIX + GoJson.cannotUnmarshal(root, "map[string]interface {}"))
                    .exception();
        }
        return (ObjectNode) root;
    }

    /**
     * RFC 7386 section 2 {@code MergePatch(Target, Patch)}. Neither argument is modified; a null or
     * missing target is treated as absent.
     */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        return merge(target == null ? null : target.deepCopy(), patch);
    }

    /** Merges into {@code target}, which the caller owns (a copy), so each node is copied once. */
    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result =
                target != null && target.isObject()
                        ? (ObjectNode) target
                        : JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            String name = member.getKey();
            JsonNode value = member.getValue();
            if (value.isNull()) {
                result.remove(name);
            } else {
                result.set(name, merge(result.get(name), value));
            }
        }
        return result;
    }
}
