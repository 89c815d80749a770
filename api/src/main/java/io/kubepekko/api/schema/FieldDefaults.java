package io.kubepekko.api.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.DefinitionLines;
import io.kubepekko.api.meta.Json;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The field defaults of {@code field-defaults.txt}: what Kubernetes' OpenAPI publishes as {@code
 * default} beyond what the schema derivation works out itself (which struct fields Go holds by
 * value, {@code +default=} markers, optional scalars without omitempty). Lines are {@code <type>
 * <jsonField> <JSON value>}, with {@code *} for every type. The OpenAPI documents publish them;
 * server-side apply completes list-map keys an applier leaves out with them.
 */
public final class FieldDefaults {
    private static final FieldDefaults BUILTIN =
            new FieldDefaults(DefinitionLines.resource(FieldDefaults.class, "field-defaults.txt"));

    private final Map<String, JsonNode> byField;

    public FieldDefaults(String text) {
        this.byField = parse(text == null ? "" : text);
    }

    public static FieldDefaults builtin() {
        return BUILTIN;
    }

    /**
     * The listed default of a field of {@code type} (as JSON shows it, after inlining), or null.
     * The caller checks that the value fits the field.
     */
    public JsonNode of(String type, String jsonField) {
        JsonNode own = byField.get(type + " " + jsonField);
        return own != null ? own : byField.get("* " + jsonField);
    }

    /** Every listed default, keyed {@code "<type> <jsonField>"} (tests check each one is used). */
    public Map<String, JsonNode> entries() {
        return Collections.unmodifiableMap(byField);
    }

    private static Map<String, JsonNode> parse(String text) {
        Map<String, JsonNode> out = new HashMap<>();
        for (DefinitionLines.Line l : DefinitionLines.of(text)) {
            String[] parts = l.text().split("\\s+", 3);
            if (parts.length != 3) {
                throw new IllegalArgumentException(
                        "field-defaults.txt:" + l.number() + ": cannot read \"" + l.text() + "\"");
            }
            try {
                out.put(parts[0] + " " + parts[1], Json.MAPPER.readTree(parts[2]));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(
                        "field-defaults.txt:" + l.number() + ": not JSON: " + parts[2], e);
            }
        }
        return out;
    }
}
