package io.kubepekko.api.schema;

import io.kubepekko.api.meta.DefinitionLines;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The enums of {@code field-enums.txt}: the values a live kube-apiserver publishes as {@code enum}
 * for fields whose Go type is marked {@code +enum}, which the client models do not carry. Lines are
 * {@code <type> <jsonField> <value>,<value>,...} with {@code ""} for the empty string, the values
 * in the order Kubernetes publishes them. The OpenAPI documents publish them on the field, or on
 * its list items or map values when the field holds strings there.
 */
public final class FieldEnums {
    private static final String FILE = "field-enums.txt";
    private static final FieldEnums BUILTIN =
            new FieldEnums(DefinitionLines.resource(FieldEnums.class, FILE));

    private final Map<String, List<String>> byField;

    public FieldEnums(String text) {
        this.byField = parse(text == null ? "" : text);
    }

    public static FieldEnums builtin() {
        return BUILTIN;
    }

    /**
     * The listed values of a field of {@code type} (as JSON shows it, after inlining), in published
     * order; empty when none are listed. The caller checks that the field holds strings.
     */
    public List<String> of(String type, String jsonField) {
        return byField.getOrDefault(type + " " + jsonField, List.of());
    }

    /**
     * Every listed enum, keyed {@code "<type> <jsonField>"} (tests check each one is published).
     */
    public Map<String, List<String>> entries() {
        return Collections.unmodifiableMap(byField);
    }

    private static Map<String, List<String>> parse(String text) {
        Map<String, List<String>> out = new HashMap<>();
        for (DefinitionLines.Line l : DefinitionLines.of(text)) {
            String[] parts = l.text().split("\\s+");
            if (parts.length != 3) {
                throw new IllegalArgumentException(
                        FILE + ":" + l.number() + ": cannot read \"" + l.text() + "\"");
            }
            List<String> values =
                    Arrays.stream(parts[2].split(",", -1)).map(v -> value(v, l)).toList();
            if (out.put(parts[0] + " " + parts[1], values) != null) {
                throw new IllegalArgumentException(
                        FILE
                                + ":"
                                + l.number()
                                + ": "
                                + parts[0]
                                + " "
                                + parts[1]
                                + " is listed twice");
            }
        }
        return out;
    }

    /**
     * A written value: {@code ""} stands for the empty string (HostPathType and IPFamily have it).
     */
    private static String value(String written, DefinitionLines.Line l) {
        if (written.isEmpty()) {
            throw new IllegalArgumentException(
                    FILE + ":" + l.number() + ": an empty value is written \"\"");
        }
        return written.equals("\"\"") ? "" : written;
    }
}
