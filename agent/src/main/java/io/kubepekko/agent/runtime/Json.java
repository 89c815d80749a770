package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Small readers over a pod as JSON (absent fields read as empty). */
final class Json {
    private Json() {}

    static JsonNode at(JsonNode n, String... path) {
        JsonNode cur = n == null ? MissingNode.getInstance() : n;
        for (String p : path) {
            cur = cur.path(p);
        }
        return cur;
    }

    static String text(JsonNode n, String... path) {
        JsonNode v = at(n, path);
        return v.isValueNode() ? v.asText() : "";
    }

    static boolean bool(JsonNode n, String... path) {
        return at(n, path).asBoolean(false);
    }

    /** The value of a boolean field, empty when the field is absent or null. */
    static Optional<Boolean> optBool(JsonNode n, String... path) {
        JsonNode v = at(n, path);
        return v.isBoolean() ? Optional.of(v.booleanValue()) : Optional.empty();
    }

    static Optional<Long> optLong(JsonNode n, String... path) {
        JsonNode v = at(n, path);
        return v.isNumber() ? Optional.of(v.longValue()) : Optional.empty();
    }

    static List<JsonNode> items(JsonNode n, String... path) {
        List<JsonNode> out = new ArrayList<>();
        JsonNode v = at(n, path);
        if (v.isArray()) {
            v.forEach(out::add);
        }
        return out;
    }

    static List<String> strings(JsonNode n, String... path) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : items(n, path)) {
            out.add(s.asText());
        }
        return out;
    }

    static Map<String, String> stringMap(JsonNode n, String... path) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode v = at(n, path);
        if (v.isObject()) {
            v.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }
}
