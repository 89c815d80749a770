package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Lenient reads of stored JSON for the core printers. Each read gives the value Kubernetes' Go
 * types would hold after decoding: a missing or oddly typed field reads as Go's zero value, so the
 * printers show what kube shows for an unset field and never throw.
 */
final class CoreCells {
    private CoreCells() {}

    /** Go's zero {@code time.Time}: metav1 treats it as unset. */
    private static final Instant GO_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    static final String NONE = "<none>";
    static final String UNKNOWN = "<unknown>";

    /** A string field; empty when missing or not a string. */
    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    /** An integer field; 0 when missing or not an integral number. */
    static long integer(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isIntegralNumber() ? v.asLong() : 0;
    }

    /**
     * A boolean field; false when missing or not a boolean (a nil {@code *bool} reads false too).
     */
    static boolean flag(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isBoolean() && v.booleanValue();
    }

    /** The object at a field, or null where Go would hold a nil pointer. */
    static JsonNode object(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isObject() ? v : null;
    }

    /** The elements of an array field; empty when missing or not an array. */
    static List<JsonNode> items(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        List<JsonNode> out = new ArrayList<>();
        if (v != null && v.isArray()) {
            v.forEach(out::add);
        }
        return out;
    }

    /** A metav1.Time or MicroTime field; null when unset, malformed or Go's zero time. */
    static Instant time(JsonNode node, String field) {
        String s = text(node, field);
        if (s.isEmpty()) {
            return null;
        }
        try {
            Instant t = Instant.parse(s);
            return t.equals(GO_ZERO_TIME) ? null : t;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The human age of a time at {@code now}; {@code <unknown>} when unset, as kube prints. */
    static String since(Instant t, Instant now) {
        return t == null ? UNKNOWN : Ages.human(Duration.between(t, now));
    }

    /** The later of two times, where null is Go's zero time (before every other). */
    static Instant later(Instant a, Instant b) {
        if (b == null) {
            return a;
        }
        return a == null || a.isBefore(b) ? b : a;
    }

    static String orNone(String s) {
        return s.isEmpty() ? NONE : s;
    }

    /** A string-to-string map as {@code k1=v1,k2=v2} sorted by key; {@code <none>} when empty. */
    static String labels(JsonNode map) {
        Map<String, String> sorted = new TreeMap<>();
        if (map != null && map.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = map.properties().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : "");
            }
        }
        StringBuilder out = new StringBuilder();
        sorted.forEach(
                (k, v) -> out.append(out.length() == 0 ? "" : ",").append(k).append('=').append(v));
        return out.length() == 0 ? NONE : out.toString();
    }

    /**
     * Go's {@code strings.TrimSpace}: Unicode white space at both ends, including U+0085 and
     * U+00A0.
     */
    static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isGoSpace(s.charAt(start))) {
            start++;
        }
        while (end > start && isGoSpace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean isGoSpace(char c) {
        switch (c) {
            case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u0085', '\u00A0':
                return true;
            default:
                // Above Latin-1, Go's White_Space set is exactly the Unicode space separators.
                return c > '\u00FF' && Character.isSpaceChar(c);
        }
    }
}
