package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;

/** RFC 6902 JSON Patch (placeholder until the patch work lands). */
public final class JsonPatch {
    private JsonPatch() {}

    public static JsonNode apply(JsonNode target, byte[] patchBody) {
        JsonNode patch;
        try {
            patch = Json.MAPPER.readTree(patchBody);
        } catch (java.io.IOException e) {
            throw ApiStatus.badRequest(e.getMessage()).exception();
        }
        try {
            return com.flipkart.zjsonpatch.JsonPatch.apply(patch, target);
        } catch (RuntimeException e) {
            throw new ApiStatus(422, "Invalid", e.getMessage(), null).exception();
        }
    }
}
