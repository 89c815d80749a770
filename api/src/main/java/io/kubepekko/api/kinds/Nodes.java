package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Null-safe reads of object trees, where absent, null and Go's zero value mean the same. */
final class Nodes {
    private Nodes() {}

    static final JsonNodeFactory F = JsonNodeFactory.instance;

    static JsonNode at(JsonNode n, String... path) {
        JsonNode cur = n == null ? MissingNode.getInstance() : n;
        for (String p : path) {
            cur = cur.path(p);
        }
        return cur;
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? "" : v.asText();
    }

    static boolean has(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && !v.isNull();
    }

    static List<JsonNode> items(JsonNode n, String field) {
        List<JsonNode> out = new ArrayList<>();
        JsonNode v = n == null ? null : n.get(field);
        if (v != null && v.isArray()) {
            v.forEach(out::add);
        }
        return out;
    }

    static List<String> strings(JsonNode n, String field) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : items(n, field)) {
            out.add(v.asText());
        }
        return out;
    }

    static Map<String, String> stringMap(JsonNode n) {
        Map<String, String> out = new TreeMap<>();
        if (n != null && n.isObject()) {
            n.properties()
                    .iterator()
                    .forEachRemaining(
                            e ->
                                    out.put(
                                            e.getKey(),
                                            e.getValue().isNull() ? "" : e.getValue().asText()));
        }
        return out;
    }

    /** The object at {@code field}, created when absent or not an object. */
    static ObjectNode obj(ObjectNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v instanceof ObjectNode o) {
            return o;
        }
        return parent.putObject(field);
    }

    static ArrayNode arr(ObjectNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v instanceof ArrayNode a) {
            return a;
        }
        return parent.putArray(field);
    }

    static void defaultText(ObjectNode n, String field, String value) {
        if (text(n, field).isEmpty()) {
            n.put(field, value);
        }
    }

    /**
     * Stored as an int node when it fits, as the JSON parser would, so defaulted and parsed trees
     * compare equal.
     */
    static void defaultInt(ObjectNode n, String field, long value) {
        if (!has(n, field)) {
            if (value == (int) value) {
                n.put(field, (int) value);
            } else {
                n.put(field, value);
            }
        }
    }

    static void defaultBool(ObjectNode n, String field, boolean value) {
        if (!has(n, field)) {
            n.put(field, value);
        }
    }

    /** Equality where absent and null count as equal. */
    static boolean same(JsonNode a, JsonNode b) {
        boolean aUnset = a == null || a.isNull() || a.isMissingNode();
        boolean bUnset = b == null || b.isNull() || b.isMissingNode();
        if (aUnset || bUnset) {
            return aUnset == bUnset;
        }
        return a.equals(b);
    }

    /** An int-or-string field as Go prints it: the number, or the string. */
    static Object intOrString(JsonNode v) {
        return v.isNumber() ? (Object) v.asLong() : v.asText();
    }
}
