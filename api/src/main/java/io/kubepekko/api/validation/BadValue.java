package io.kubepekko.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A structured "bad value" for a {@link io.kubepekko.api.status.FieldError}. Since Kubernetes 1.34
 * such values print as compact JSON ({@code Invalid value: {"app":"web"}: ...}); strings and
 * numbers should be passed to FieldError directly instead.
 */
public record BadValue(String json) {

    /** The node as compact JSON, keys in the order given (Go structs keep their field order). */
    public static BadValue of(JsonNode node) {
        return new BadValue(node == null || node.isMissingNode() ? "null" : Json.string(node));
    }

    /** A string-to-string map as compact JSON with sorted keys, as Go marshals maps. */
    public static BadValue ofMap(Map<String, String> map) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        List<String> keys = new ArrayList<>(map.keySet());
        Collections.sort(keys);
        for (String k : keys) {
            n.put(k, map.get(k));
        }
        return new BadValue(Json.string(n));
    }

    /** A map node (labels, parameters…) with its keys sorted. */
    public static BadValue ofSortedObject(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return new BadValue("null");
        }
        if (!node.isObject()) {
            return of(node);
        }
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        Collections.sort(keys);
        for (String k : keys) {
            n.set(k, node.get(k));
        }
        return new BadValue(Json.string(n));
    }

    @Override
    public String toString() {
        return json;
    }
}
