package io.kubepekko.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON request body serialized once, with named slots ({@code ${name}} inside string values)
 * filled in per request. A worker sends thousands of bodies a second from a machine the server
 * shares, so building each one by copying and re-serializing a Jackson tree would take CPU from the
 * server being measured; filling a template is a few array copies.
 */
final class BodyTemplate {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SLOT = Pattern.compile("\\$\\{(\\w+)}");

    /** What a slot value may hold: it is pasted into a JSON string unescaped. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._-]*");

    private final byte[][] literals;
    private final String[] slots;

    private BodyTemplate(byte[][] literals, String[] slots) {
        this.literals = literals;
        this.slots = slots;
    }

    static BodyTemplate of(JsonNode body) {
        String json;
        try {
            json = JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        List<byte[]> literals = new ArrayList<>();
        List<String> slots = new ArrayList<>();
        Matcher m = SLOT.matcher(json);
        int from = 0;
        while (m.find()) {
            literals.add(json.substring(from, m.start()).getBytes(StandardCharsets.UTF_8));
            slots.add(m.group(1));
            from = m.end();
        }
        literals.add(json.substring(from).getBytes(StandardCharsets.UTF_8));
        return new BodyTemplate(literals.toArray(byte[][]::new), slots.toArray(String[]::new));
    }

    /**
     * The body with every slot replaced by its value.
     *
     * @throws IllegalArgumentException when a slot has no value, or a value would need JSON
     *     escaping
     */
    byte[] fill(Map<String, String> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size() + 64);
        for (int i = 0; i < slots.length; i++) {
            out.writeBytes(literals[i]);
            String value = values.get(slots[i]);
            if (value == null || !PLAIN.matcher(value).matches()) {
                throw new IllegalArgumentException("slot ${" + slots[i] + "}: bad value " + value);
            }
            out.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(literals[slots.length]);
        return out.toByteArray();
    }

    /** The body's size without its slot values. */
    int size() {
        int n = 0;
        for (byte[] literal : literals) {
            n += literal.length;
        }
        return n;
    }
}
