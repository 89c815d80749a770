package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Reason;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;

/**
 * RFC 6902 JSON Patch ({@code application/json-patch+json}) with kube-apiserver's error mapping: a
 * body that does not decode as a list of operations is 400 BadRequest ({@code error decoding patch:
 * ...}); more than 10000 operations is 413; an operation that cannot be applied, a failed {@code
 * test} included, is 422 Invalid with the generic message kube-apiserver uses there (it does not
 * pass the json-patch library's reason on, and neither do we).
 */
public final class JsonPatch {
    private JsonPatch() {}

    /** kube-apiserver's {@code maxJSONPatchOperations}. */
    public static final int MAX_OPERATIONS = 10_000;

    /** What kube-apiserver answers for any operation that fails to apply. */
    public static final String APPLY_FAILED =
            "the server rejected our request due to an error in our request";

    /**
     * Flags that make zjsonpatch agree with the evanphx/json-patch v4 library Kubernetes uses: an
     * omitted {@code value} is null, {@code replace} of a missing object member adds it, and {@code
     * remove} of a missing member fails.
     */
    private static final EnumSet<CompatibilityFlags> EVANPHX_COMPATIBLE =
            EnumSet.of(
                    CompatibilityFlags.MISSING_VALUES_AS_NULLS,
                    CompatibilityFlags.ALLOW_MISSING_TARGET_OBJECT_ON_REPLACE,
                    CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT);

    /** The Go type kube-apiserver strict-decodes the body into; it appears in its messages. */
    private static final String GO_OPERATION_TYPE = "handlers.jsonPatchOp";

    private static final String DECODE_PREFIX = "error decoding patch: ";

    /**
     * Applies {@code patchBody} to {@code target} without modifying it.
     *
     * @throws ApiException 400, 413 or 422 as described on the class
     */
    public static JsonNode apply(JsonNode target, byte[] patchBody) {
        return apply(target, parse(patchBody));
    }

    /**
     * Decodes a patch body into its operations, checking what kube-apiserver's strict decoding into
     * {@code []jsonPatchOp} checks: a JSON array (or null, meaning no operations) of objects whose
     * {@code op}, {@code path} and {@code from} are strings when present.
     *
     * @throws ApiException 400 for a malformed body, 413 for too many operations
     */
    public static ArrayNode parse(byte[] patchBody) {
        JsonNode root = GoJson.parse(patchBody, DECODE_PREFIX);
        if (root.isNull()) {
            return JsonNodeFactory.instance.arrayNode();
        }
        if (!root.isArray()) {
            throw badRequest(GoJson.cannotUnmarshal(root, "[]" + GO_OPERATION_TYPE));
        }
        for (JsonNode op : root) {
            if (op.isNull()) {
                continue;
            }
            if (!op.isObject()) {
                throw badRequest(GoJson.cannotUnmarshal(op, GO_OPERATION_TYPE));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = op.properties().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String name = field.getKey();
                JsonNode value = field.getValue();
                boolean stringField =
                        name.equals("op") || name.equals("path") || name.equals("from");
                if (stringField && !value.isNull() && !value.isTextual()) {
                    throw badRequest(
                            "json: cannot unmarshal "
                                    + GoJson.kind(value)
                                    + " into Go struct field jsonPatchOp."
                                    + name
                                    + " of type string");
                }
            }
        }
        if (root.size() > MAX_OPERATIONS) {
            throw ApiStatus.requestEntityTooLarge(
                            "Request entity too large: The allowed maximum operations in a JSON "
                                    + "patch is "
                                    + MAX_OPERATIONS
                                    + ", got "
                                    + root.size())
                    .exception();
        }
        return (ArrayNode) root;
    }

    /**
     * Applies decoded operations to {@code target} without modifying it. {@code copy} operations
     * may add at most {@link #MAX_COPY_BYTES} between them (the size of each value copied, as
     * JSON): a few operations that copy a value into itself again and again would otherwise grow
     * one small patch into more than any heap holds.
     *
     * @throws ApiException 422 Invalid when an operation does not apply, or the copies add too much
     */
    public static JsonNode apply(JsonNode target, ArrayNode operations) {
        for (JsonNode op : operations) {
            if (!op.isObject()
                    || !pointer(op.path("path"))
                    || op.has("from") && !pointer(op.get("from"))) {
                // A null operation decodes to an empty one, which Kubernetes rejects as an unknown
                // kind.
                throw applyFailed();
            }
        }
        // Under a wrapper, so that operations on the whole document ("") apply in place like the
        // others.
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.set(ROOT, target.deepCopy());
        long copied = 0;
        try {
            for (JsonNode op : operations) {
                ObjectNode rooted = ((ObjectNode) op).deepCopy();
                rooted.put("path", "/" + ROOT + op.path("path").asText());
                if (op.has("from")) {
                    rooted.put("from", "/" + ROOT + op.get("from").asText());
                    if ("copy".equals(op.path("op").asText())) {
                        JsonNode value = doc.at(rooted.get("from").asText());
                        copied += value.isMissingNode() ? 0 : Json.byteSize(value);
                        if (copied > MAX_COPY_BYTES) {
                            throw applyFailed();
                        }
                    }
                }
                com.flipkart.zjsonpatch.JsonPatch.applyInPlace(
                        JsonNodeFactory.instance.arrayNode().add(rooted), doc, EVANPHX_COMPATIBLE);
            }
        } catch (JsonPatchApplicationException | IllegalArgumentException e) {
            // Includes unknown ops, missing paths, malformed pointers and failed tests: every
            // failure
            // to apply is the client's, as in kube-apiserver.
            throw applyFailed();
        }
        return doc.get(ROOT);
    }

    /**
     * kube-apiserver's {@code JSONPatchMaxCopyBytes} (3 MiB), the limit it sets on the json-patch
     * library's accumulated copy size.
     */
    public static final long MAX_COPY_BYTES = 3L * 1024 * 1024;

    private static final String ROOT = "r";

    /**
     * A JSON pointer: empty (the whole document) or starting with a slash (a missing one fails, as
     * in Go).
     */
    private static boolean pointer(JsonNode path) {
        return path.isTextual() && (path.asText().isEmpty() || path.asText().startsWith("/"));
    }

    private static ApiException applyFailed() {
        return new ApiStatus(422, Reason.INVALID, APPLY_FAILED, null).exception();
    }

    private static ApiException badRequest(String goError) {
        return ApiStatus.badRequest(DECODE_PREFIX + goError).exception();
    }
}
