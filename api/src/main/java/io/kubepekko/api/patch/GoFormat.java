package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.GoFloats;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Go's {@code fmt} rendering of a decoded JSON value ({@code map[string]interface{}}, {@code
 * []interface{}}, {@code string}, {@code int64}, {@code float64}, {@code bool}, {@code nil}), which
 * Kubernetes' patch errors quote: {@code %v} prints {@code map[a:1 b:[x y]]} with sorted keys,
 * {@code %s} prints strings and marks other values as {@code %!s(int64=5)}.
 */
final class GoFormat {
    private GoFormat() {}

    /** {@code %v}. */
    static String v(JsonNode node) {
        return format(node, 'v');
    }

    /** {@code %s}. */
    static String s(JsonNode node) {
        return format(node, 's');
    }

    private static String format(JsonNode node, char verb) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return verb == 'v' ? "<nil>" : "%!s(<nil>)";
        }
        if (node.isObject()) {
            List<String> keys = new ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            keys.sort(null);
            StringBuilder b = new StringBuilder("map[");
            for (int i = 0; i < keys.size(); i++) {
                b.append(i == 0 ? "" : " ")
                        .append(keys.get(i))
                        .append(':')
                        .append(format(node.get(keys.get(i)), verb));
            }
            return b.append(']').toString();
        }
        if (node.isArray()) {
            StringBuilder b = new StringBuilder("[");
            Iterator<JsonNode> items = node.elements();
            for (int i = 0; items.hasNext(); i++) {
                b.append(i == 0 ? "" : " ").append(format(items.next(), verb));
            }
            return b.append(']').toString();
        }
        if (node.isTextual()) {
            return node.asText();
        }
        String type;
        String value;
        if (node.isBoolean()) {
            type = "bool";
            value = Boolean.toString(node.asBoolean());
        } else if (node.isIntegralNumber() && node.canConvertToLong()) {
            type = "int64";
            value = Long.toString(node.asLong());
        } else {
            type = "float64";
            value = GoFloats.g(node.asDouble());
        }
        return verb == 'v' ? value : "%!s(" + type + "=" + value + ")";
    }
}
