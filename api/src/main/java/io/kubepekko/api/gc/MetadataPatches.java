package io.kubepekko.api.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import java.util.Collection;
import java.util.Optional;

/**
 * The JSON merge patches the controllers write to metadata lists. Each carries the object's
 * resourceVersion, so it applies only to the state it was computed from (409 otherwise, and the
 * caller computes it again), as kube's garbage collector does for kinds without strategic merge.
 */
public final class MetadataPatches {

    private MetadataPatches() {}

    /**
     * Removes the owner references to {@code ownerUids}; empty when {@code obj} has none of them.
     */
    public static Optional<byte[]> withoutOwnerReferences(
            ObjectNode obj, Collection<String> ownerUids) {
        ArrayNode kept = Json.MAPPER.createArrayNode();
        boolean removed = false;
        for (JsonNode ref : obj.path("metadata").path("ownerReferences")) {
            if (ownerUids.contains(ref.path("uid").asText())) {
                removed = true;
            } else {
                kept.add(ref);
            }
        }
        return removed ? Optional.of(patch(obj, "ownerReferences", kept)) : Optional.empty();
    }

    /** Removes {@code finalizer}; empty when {@code obj} does not have it. */
    public static Optional<byte[]> withoutFinalizer(ObjectNode obj, String finalizer) {
        ArrayNode kept = Json.MAPPER.createArrayNode();
        boolean removed = false;
        for (JsonNode f : obj.path("metadata").path("finalizers")) {
            if (finalizer.equals(f.asText())) {
                removed = true;
            } else {
                kept.add(f);
            }
        }
        return removed ? Optional.of(patch(obj, "finalizers", kept)) : Optional.empty();
    }

    private static byte[] patch(ObjectNode obj, String field, ArrayNode kept) {
        ObjectNode patch = Json.MAPPER.createObjectNode();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("resourceVersion", ObjectMeta.resourceVersion(obj));
        if (kept.isEmpty()) {
            meta.putNull(field);
        } else {
            meta.set(field, kept);
        }
        return Json.bytes(patch);
    }
}
