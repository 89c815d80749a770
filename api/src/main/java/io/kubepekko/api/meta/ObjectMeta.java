package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Typed access to {@code metadata} of an object tree. Objects stay Jackson trees so that every kind
 * goes through the same code; only metadata gets accessors.
 */
public final class ObjectMeta {
    private ObjectMeta() {}

    /** The {@code metadata} object, created if absent. */
    public static ObjectNode of(ObjectNode obj) {
        JsonNode m = obj.get("metadata");
        if (m instanceof ObjectNode o) {
            return o;
        }
        return obj.putObject("metadata");
    }

    public static String text(ObjectNode obj, String field) {
        JsonNode m = obj.get("metadata");
        if (m == null || !m.isObject()) {
            return null;
        }
        JsonNode v = m.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    public static String name(ObjectNode obj) {
        return text(obj, "name");
    }

    public static String namespace(ObjectNode obj) {
        return text(obj, "namespace");
    }

    public static String uid(ObjectNode obj) {
        return text(obj, "uid");
    }

    public static String resourceVersion(ObjectNode obj) {
        return text(obj, "resourceVersion");
    }

    public static String generateName(ObjectNode obj) {
        return text(obj, "generateName");
    }

    public static long generation(ObjectNode obj) {
        JsonNode m = obj.get("metadata");
        return m == null ? 0 : m.path("generation").asLong(0);
    }

    /** Labels as a sorted map (empty when absent). */
    public static Map<String, String> labels(ObjectNode obj) {
        return stringMap(obj, "labels");
    }

    public static Map<String, String> annotations(ObjectNode obj) {
        return stringMap(obj, "annotations");
    }

    private static Map<String, String> stringMap(ObjectNode obj, String field) {
        Map<String, String> out = new TreeMap<>();
        JsonNode m = obj.get("metadata");
        if (m != null && m.get(field) instanceof ObjectNode map) {
            map.properties()
                    .iterator()
                    .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    public static void set(ObjectNode obj, String field, String value) {
        if (value == null) {
            of(obj).remove(field);
        } else {
            of(obj).put(field, value);
        }
    }
}
