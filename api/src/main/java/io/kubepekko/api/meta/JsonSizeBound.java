package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * An upper bound of {@link Json#byteSize}, found by walking the tree without writing it: every
 * character of a string or field name counted as the six bytes of its {@code \}{@code uXXXX} escape
 * (the most any UTF-16 unit takes in JSON's UTF-8), every number as its longest text. A limit check
 * that the bound passes needs no serialization; only an object near its limit (about a sixth of it
 * in long text) is measured exactly.
 */
public final class JsonSizeBound {
    private JsonSizeBound() {}

    /** Per UTF-16 unit: {@code \}{@code u001f} is the longest escape Jackson writes. */
    static final long PER_CHAR = 6;

    /** {@code -2147483648}. */
    static final long INT = 11;

    /** {@code -9223372036854775808}. */
    static final long LONG = 20;

    /** {@code -1.7976931348623157E308}, and a float's shorter text. */
    static final long FLOATING = 24;

    /** At least {@link Json#byteSize}{@code (node)}. */
    public static long of(JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT:
                {
                    long size = 2 + Math.max(0, node.size() - 1);
                    for (Map.Entry<String, JsonNode> f : node.properties()) {
                        size += text(f.getKey()) + 1 + of(f.getValue());
                    }
                    return size;
                }
            case ARRAY:
                {
                    long size = 2 + Math.max(0, node.size() - 1);
                    for (JsonNode item : node) {
                        size += of(item);
                    }
                    return size;
                }
            case STRING:
                return text(node.textValue());
            case NUMBER:
                return number(node);
            case BOOLEAN:
                return 5;
            case NULL:
                return 4;
            case MISSING:
                return 0;
            default:
                // BINARY and POJO nodes are written by rules of their own: measure them.
                return Json.byteSize(node);
        }
    }

    private static long text(String s) {
        return 2 + PER_CHAR * s.length();
    }

    private static long number(JsonNode n) {
        if (n.isInt() || n.isShort()) {
            return INT;
        }
        if (n.isLong()) {
            return LONG;
        }
        if (n.isDouble() || n.isFloat()) {
            return FLOATING;
        }
        // BigInteger and BigDecimal are written as their text (plain or scientific, as given).
        return n.isBigDecimal()
                ? n.decimalValue().toString().length()
                : n.bigIntegerValue().toString().length();
    }
}
