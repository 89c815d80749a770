package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The operations of one path, in OpenAPI's field order, then the parameters they share. */
final class PathItem {
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");
    private final Map<String, ObjectNode> operations = new LinkedHashMap<>();
    private final ArrayNode parameters;

    PathItem(ArrayNode parameters) {
        this.parameters = parameters;
    }

    void put(String method, ObjectNode operation) {
        operations.put(method, operation);
    }

    ObjectNode toJson() {
        ObjectNode item = Json.MAPPER.createObjectNode();
        METHODS.forEach(
                m -> {
                    if (operations.containsKey(m)) {
                        item.set(m, operations.get(m));
                    }
                });
        item.set("parameters", parameters);
        return item;
    }
}
