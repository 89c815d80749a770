package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
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
            value = float64(node.asDouble());
        }
        return verb == 'v' ? value : "%!s(" + type + "=" + value + ")";
    }

    /**
     * Go's {@code strconv.FormatFloat(f, 'g', -1, 64)}: the shortest digits, in exponent form below
     * 1e-4 and from 1e6.
     */
    static String float64(double f) {
        if (Double.isNaN(f)) {
            return "NaN";
        }
        if (Double.isInfinite(f)) {
            return f > 0 ? "+Inf" : "-Inf";
        }
        if (f == 0) {
            return 1 / f < 0 ? "-0" : "0";
        }
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(f))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int exp = digits.length() - 1 - d.scale();
        String sign = f < 0 ? "-" : "";
        if (exp < -4 || exp >= 6) {
            String mantissa =
                    digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = Integer.toString(Math.abs(exp));
            return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return sign + d.toPlainString();
    }
}
