package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bound is never below the written size, whatever the text and numbers hold. */
class JsonSizeBoundTest {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static void assertBounds(JsonNode node) {
        long exact = Json.byteSize(node);
        long bound = JsonSizeBound.of(node);
        assertTrue(bound >= exact, "bound " + bound + " < written " + exact + ": " + node);
    }

    @Test
    void theLongestEscapesAndNumbersStayWithinTheBound() {
        ObjectNode o = F.objectNode();
        o.put("\u0001\u001f\"\\", "\u0000\u0007\u001f\"\\\b\f\n\r\t");
        o.put("bmp", "\u00e9\u4e16\uffff");
        o.put("pair", "\ud83d\ude00");
        o.put("lone", "\ud83d");
        o.put("int", Integer.MIN_VALUE);
        o.put("long", Long.MIN_VALUE);
        o.put("double", -Double.MAX_VALUE);
        o.put("tiny", -Double.MIN_VALUE);
        o.put("float", -Float.MAX_VALUE);
        o.put("short", Short.MIN_VALUE);
        o.put("big", new BigInteger("-" + "9".repeat(400)));
        o.put("decimal", new BigDecimal("-1.5E-400"));
        o.put("plain", new BigDecimal("-12345678901234567890.123456789"));
        o.put("yes", true).putNull("nothing");
        o.putArray("empty");
        o.putObject("none");
        o.putArray("list").add(1).add("x").addNull().addObject();
        for (String name : o.properties().stream().map(e -> e.getKey()).toList()) {
            ObjectNode one = F.objectNode();
            one.set(name, o.get(name));
            assertBounds(one);
        }
        assertBounds(o);
        assertBounds(F.objectNode());
        assertBounds(F.arrayNode());
        assertBounds(F.textNode(""));
    }

    @Test
    void pureAsciiIsBoundedAtSixBytesPerCharacter() {
        ObjectNode o = F.objectNode().put("k", "x".repeat(1000));
        assertEquals(1008, Json.byteSize(o));
        assertEquals(2 + (2 + 6) + 1 + (2 + 6000), JsonSizeBound.of(o));
    }

    @Test
    void randomTreesStayWithinTheBound() {
        Random random = new Random(42);
        for (int i = 0; i < 2000; i++) {
            assertBounds(tree(random, 0));
        }
    }

    private static JsonNode tree(Random r, int depth) {
        int kind = depth > 3 ? 2 + r.nextInt(5) : r.nextInt(7);
        switch (kind) {
            case 0:
                {
                    ObjectNode o = F.objectNode();
                    for (int i = r.nextInt(5); i > 0; i--) {
                        o.set(text(r), tree(r, depth + 1));
                    }
                    return o;
                }
            case 1:
                {
                    ArrayNode a = F.arrayNode();
                    for (int i = r.nextInt(5); i > 0; i--) {
                        a.add(tree(r, depth + 1));
                    }
                    return a;
                }
            case 2:
                return F.textNode(text(r));
            case 3:
                return r.nextBoolean() ? F.numberNode(r.nextInt()) : F.numberNode(r.nextLong());
            case 4:
                return r.nextBoolean()
                        ? F.numberNode(r.nextDouble() * Math.pow(10, r.nextInt(600) - 300))
                        : F.numberNode(
                                new BigDecimal(
                                        BigInteger.valueOf(r.nextLong()), r.nextInt(800) - 400));
            case 5:
                return F.booleanNode(r.nextBoolean());
            default:
                return F.nullNode();
        }
    }

    /** Characters from every class: plain, escaped, control, multi-byte, surrogates. */
    private static String text(Random r) {
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
            switch (r.nextInt(5)) {
                case 0 -> b.append((char) ('a' + r.nextInt(26)));
                case 1 -> b.append((char) r.nextInt(0x20));
                case 2 -> b.append("\"\\/".charAt(r.nextInt(3)));
                case 3 -> b.append((char) (0x80 + r.nextInt(0xd800 - 0x80)));
                default -> b.append((char) (0xd800 + r.nextInt(0x800)));
            }
        }
        return b.toString();
    }
}
