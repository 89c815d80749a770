package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.schema.SchemaNode;
import io.kubepekko.api.status.FieldError;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One pass over a token stream, building the object a typed Kubernetes decode would keep: fields
 * the schema does not know are dropped, and what Go's strict JSON decoding (sigs.k8s.io/json) would
 * report is recorded in the same order, wording and paths: unknown and duplicate fields, and the
 * first value of the wrong type. For YAML, duplicate keys anywhere are recorded as the YAML
 * converter words them ({@code line 4: key "name" already set in map}).
 *
 * <p>Driven by the data, never by the schema alone, so recursive schemas terminate.
 */
final class SchemaDecoding {
    /** Kubernetes stops collecting strict errors at this many. */
    private static final int MAX_STRICT_ERRORS = 100;

    private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final String TYPE_META_STRUCT =
            "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }";

    /**
     * What the pass found. {@code typeError} and {@code interpretError} are null when there was
     * none.
     */
    record Outcome(
            ObjectNode object,
            List<StrictProblem> strict,
            List<String> yamlDuplicates,
            List<String> yamlDuplicatePaths,
            String typeError,
            String interpretError,
            String bodyApiVersion,
            String bodyKind) {}

    /** An error that stops Go's decoder at once (returned by a custom UnmarshalJSON). */
    private static final class Fatal extends Exception {
        private static final long serialVersionUID = 1L;

        Fatal(String message) {
            super(message, null, false, false);
        }
    }

    private final JsonParser p;
    private final boolean yaml;

    /**
     * Whether empty maps and lists of omitempty fields are left out, as Go's encoding of the result
     * does.
     */
    private final boolean omitEmpty;

    private final JsonNodeFactory nodes = Json.MAPPER.getNodeFactory();

    private final List<StrictProblem> strict = new ArrayList<>();
    private final Set<String> strictSeen = new HashSet<>();
    private final List<String> yamlDuplicates = new ArrayList<>();
    private final List<String> yamlDuplicatePaths = new ArrayList<>();
    private String typeError;
    private String interpretError;
    private String bodyApiVersion;
    private String bodyKind;

    /** sigs.k8s.io/json's strict field stack: keys joined by dots, indices in brackets. */
    private final StringBuilder strictPath = new StringBuilder();

    /**
     * Go's error context: the struct being filled and the struct fields entered, without indices or
     * map keys.
     */
    private String structName;

    private final List<String> fieldStack = new ArrayList<>();

    private SchemaDecoding(JsonParser p, boolean yaml, boolean omitEmpty) {
        this.p = p;
        this.yaml = yaml;
        this.omitEmpty = omitEmpty;
    }

    /**
     * Decodes the first value of the stream as an object of the {@code root} schema. Syntax errors
     * surface as the parser's {@link IOException}.
     */
    static Outcome decode(JsonParser parser, boolean yaml, SchemaNode root) throws IOException {
        return new SchemaDecoding(parser, yaml, true).run(root);
    }

    /**
     * As {@link #decode}, keeping empty maps and lists in {@code omitempty} fields: for a
     * server-side apply configuration, where an empty atomic list still replaces the live one
     * before the merged object is encoded.
     */
    static Outcome decodeKeepingEmpty(JsonParser parser, SchemaNode root) throws IOException {
        return new SchemaDecoding(parser, false, false).run(root);
    }

    private Outcome run(SchemaNode root) throws IOException {
        ObjectNode object = nodes.objectNode();
        try {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT) {
                object = object(root, object, true);
            } else if (t != null && t != JsonToken.VALUE_NULL) {
                interpretError =
                        "json: cannot unmarshal "
                                + describe(t)
                                + " into Go value of type "
                                + TYPE_META_STRUCT;
                skipValue();
            }
        } catch (Fatal f) {
            typeError = f.getMessage();
        }
        return new Outcome(
                object,
                List.copyOf(strict),
                List.copyOf(yamlDuplicates),
                List.copyOf(yamlDuplicatePaths),
                typeError,
                interpretError,
                bodyApiVersion,
                bodyKind);
    }

    private JsonNode value(SchemaNode s, JsonNode existing) throws IOException, Fatal {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        return switch (s.type()) {
            case ANY -> generic();
            case OBJECT ->
                    t == JsonToken.START_OBJECT
                            ? object(
                                    s,
                                    existing instanceof ObjectNode o ? o : nodes.objectNode(),
                                    false)
                            : mismatch(t, s.goType());
            case MAP ->
                    t == JsonToken.START_OBJECT
                            ? map(s, existing instanceof ObjectNode o ? o : nodes.objectNode())
                            : mismatch(t, s.goType());
            case ARRAY -> t == JsonToken.START_ARRAY ? array(s) : mismatch(t, s.goType());
            case STRING -> string(t, s);
            case BOOLEAN ->
                    t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE
                            ? nodes.booleanNode(t == JsonToken.VALUE_TRUE)
                            : mismatch(t, s.goType());
            case INTEGER -> integer(t, s.goType());
            case NUMBER -> number(t, s.goType());
            case BYTES -> bytes(t, s);
            case INT_OR_STRING -> intOrString(t);
            case QUANTITY -> quantity(t);
            case DATE_TIME -> dateTime(t);
        };
    }

    private ObjectNode object(SchemaNode s, ObjectNode out, boolean root)
            throws IOException, Fatal {
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken vt = p.nextToken();
            boolean duplicate = !seen.add(key);
            SchemaNode field = s.properties().get(key);
            if (field == null) {
                if (duplicate && yaml) {
                    yamlDuplicate(key);
                }
                strict(StrictProblem.Kind.UNKNOWN, key);
                skipValue();
                continue;
            }
            if (duplicate) {
                if (yaml) {
                    yamlDuplicate(key);
                } else {
                    strict(StrictProblem.Kind.DUPLICATE, key);
                }
            }
            if (root) {
                interpretTypeMeta(key, vt);
            }
            String savedStruct = structName;
            int savedStack = fieldStack.size();
            int savedPath = strictPath.length();
            structName = s.goStructName();
            fieldStack.add(key);
            pushKey(key);
            // Go decodes a repeated struct or map field into what the first occurrence built; the
            // YAML converter has already kept only the last occurrence.
            JsonNode v = value(field, yaml ? null : out.get(key));
            structName = savedStruct;
            fieldStack.subList(savedStack, fieldStack.size()).clear();
            strictPath.setLength(savedPath);
            if (v == null || (omitEmpty && omittedWhenEmpty(s, key, field, v))) {
                out.remove(key);
            } else {
                out.set(key, v);
            }
        }
        return out;
    }

    /**
     * Whether Go leaves this field out when it encodes the decoded object: an empty map or list in
     * an {@code omitempty} field (every field the schema does not require), such as the {@code
     * "annotations": {}} kubectl's client-side apply and diff send. Kubernetes stores the encoding,
     * so the field is gone and a write that only adds it changes nothing.
     */
    private static boolean omittedWhenEmpty(
            SchemaNode struct, String key, SchemaNode field, JsonNode v) {
        boolean emptyContainer =
                (field.type() == SchemaNode.Type.MAP && v.isObject() && v.isEmpty())
                        || (field.type() == SchemaNode.Type.ARRAY && v.isArray() && v.isEmpty());
        return emptyContainer && !struct.required().contains(key);
    }

    private ObjectNode map(SchemaNode s, ObjectNode out) throws IOException, Fatal {
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            if (!seen.add(key)) {
                if (yaml) {
                    yamlDuplicate(key);
                } else {
                    strict(StrictProblem.Kind.DUPLICATE, key);
                }
            }
            int savedPath = strictPath.length();
            pushKey(key);
            JsonNode v = value(s.items(), null);
            strictPath.setLength(savedPath);
            out.set(key, v == null ? zero(s.items()) : v);
        }
        return out;
    }

    private ArrayNode array(SchemaNode s) throws IOException, Fatal {
        ArrayNode out = nodes.arrayNode();
        int index = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            int savedPath = strictPath.length();
            strictPath.append('[').append(index++).append(']');
            JsonNode v = value(s.items(), null);
            strictPath.setLength(savedPath);
            out.add(v == null ? zero(s.items()) : v);
        }
        return out;
    }

    private JsonNode string(JsonToken t, SchemaNode s) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            return nodes.textNode(p.getText());
        }
        if (t == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof byte[] b) {
            // YAML !!binary: the YAML converter turns it into a plain string.
            return nodes.textNode(new String(b, StandardCharsets.UTF_8));
        }
        return mismatch(t, s.goType());
    }

    private JsonNode integer(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            BigInteger v = p.getBigIntegerValue();
            if (fits(v, goType)) {
                return integerNode(v);
            }
            return saveError(unmarshalError("number " + p.getText(), goType));
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            Optional<BigInteger> whole = yaml ? wholeNumber() : Optional.empty();
            if (whole.isPresent() && fits(whole.get(), goType)) {
                // The YAML converter writes 3.0 as 3.
                return integerNode(whole.get());
            }
            return saveError(unmarshalError("number " + p.getText(), goType));
        }
        return mismatch(t, goType);
    }

    private JsonNode number(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return integerNode(p.getBigIntegerValue());
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            try {
                BigDecimal d = p.getDecimalValue();
                double limit = goType.equals("float32") ? Float.MAX_VALUE : Double.MAX_VALUE;
                if (Math.abs(d.doubleValue()) <= limit) {
                    return nodes.numberNode(d);
                }
            } catch (NumberFormatException e) {
                // NaN or infinity: out of range like an overflow
            }
            return saveError(unmarshalError("number " + p.getText(), goType));
        }
        return mismatch(t, goType);
    }

    private JsonNode bytes(JsonToken t, SchemaNode s) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            try {
                // Stored in canonical form, as Kubernetes re-encodes the decoded bytes.
                return nodes.textNode(
                        Base64.getEncoder().encodeToString(GoBase64.decode(p.getText())));
            } catch (GoBase64.CorruptInput e) {
                return saveError(e.getMessage());
            }
        }
        if (t == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof byte[] b) {
            return nodes.textNode(Base64.getEncoder().encodeToString(b));
        }
        return mismatch(t, s.goType());
    }

    /**
     * {@code intstr.IntOrString}: its UnmarshalJSON decodes non-strings as an int32, failing at
     * once.
     */
    private JsonNode intOrString(JsonToken t) throws IOException, Fatal {
        if (t == JsonToken.VALUE_STRING) {
            return nodes.textNode(p.getText());
        }
        if (t == JsonToken.VALUE_NUMBER_INT && fits(p.getBigIntegerValue(), "int32")) {
            return nodes.numberNode(p.getIntValue());
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT && yaml) {
            Optional<BigInteger> whole = wholeNumber();
            if (whole.isPresent() && fits(whole.get(), "int32")) {
                return nodes.numberNode(whole.get().intValue());
            }
        }
        boolean number = t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT;
        throw new Fatal(unmarshalError(number ? "number " + p.getText() : describe(t), "int32"));
    }

    /** {@code resource.Quantity}: a string or a bare number, parsed at once. */
    private JsonNode quantity(JsonToken t) throws IOException, Fatal {
        String text =
                switch (t) {
                    case VALUE_STRING -> p.getText().strip();
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getText();
                    default -> null;
                };
        if (text == null) {
            throw new Fatal(Quantity.FORMAT_WRONG);
        }
        Optional<String> error = Quantity.syntaxError(text);
        if (error.isPresent()) {
            throw new Fatal(error.get());
        }
        return nodes.textNode(text);
    }

    /** {@code metav1.Time}: its UnmarshalJSON wants a JSON string holding an RFC 3339 time. */
    private JsonNode dateTime(JsonToken t) throws IOException, Fatal {
        if (t != JsonToken.VALUE_STRING) {
            throw new Fatal(unmarshalError(describe(t), "string"));
        }
        String text = p.getText();
        Optional<String> error = GoTimeSyntax.error(text);
        if (error.isPresent()) {
            throw new Fatal(error.get());
        }
        return nodes.textNode(text);
    }

    /**
     * Any value, kept as given. For YAML, duplicate keys are still reported, as the converter does.
     */
    private JsonNode generic() throws IOException, Fatal {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                ObjectNode o = nodes.objectNode();
                Set<String> seen = new HashSet<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    if (yaml && !seen.add(key)) {
                        yamlDuplicate(key);
                    }
                    int savedPath = strictPath.length();
                    pushKey(key);
                    o.set(key, generic());
                    strictPath.setLength(savedPath);
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = nodes.arrayNode();
                int index = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    int savedPath = strictPath.length();
                    strictPath.append('[').append(index++).append(']');
                    a.add(generic());
                    strictPath.setLength(savedPath);
                }
                return a;
            }
            case VALUE_STRING -> {
                return nodes.textNode(p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return integerNode(p.getBigIntegerValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                try {
                    return nodes.numberNode(p.getDecimalValue());
                } catch (NumberFormatException e) {
                    throw new Fatal("json: unsupported value: " + p.getText());
                }
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return nodes.booleanNode(t == JsonToken.VALUE_TRUE);
            }
            case VALUE_EMBEDDED_OBJECT -> {
                Object embedded = p.getEmbeddedObject();
                return embedded instanceof byte[] b
                        ? nodes.textNode(Base64.getEncoder().encodeToString(b))
                        : nodes.textNode(String.valueOf(embedded));
            }
            default -> {
                return nodes.nullNode();
            }
        }
    }

    /** Skips a value the decoder ignores; YAML still reports its duplicate keys. */
    private void skipValue() throws IOException, Fatal {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            if (yaml) {
                generic();
            } else {
                p.skipChildren();
            }
        }
    }

    private JsonNode mismatch(JsonToken t, String goType) throws IOException {
        saveError(unmarshalError(describe(t), goType));
        try {
            skipValue();
        } catch (Fatal f) {
            // a later problem inside a value that is already wrong changes nothing
        }
        return null;
    }

    /** Go keeps the first such error and goes on decoding. */
    private JsonNode saveError(String message) {
        if (typeError == null) {
            typeError = message;
        }
        return null;
    }

    private String unmarshalError(String value, String goType) {
        if (structName == null && fieldStack.isEmpty()) {
            return "json: cannot unmarshal " + value + " into Go value of type " + goType;
        }
        return "json: cannot unmarshal "
                + value
                + " into Go struct field "
                + (structName == null ? "" : structName)
                + "."
                + String.join(".", fieldStack)
                + " of type "
                + goType;
    }

    /** The first pass over a body reads only apiVersion and kind, as strings. */
    private void interpretTypeMeta(String key, JsonToken t) throws IOException {
        if (!key.equals("apiVersion") && !key.equals("kind")) {
            return;
        }
        if (t == JsonToken.VALUE_STRING) {
            if (key.equals("apiVersion")) {
                bodyApiVersion = p.getText();
            } else {
                bodyKind = p.getText();
            }
        } else if (t != JsonToken.VALUE_NULL && interpretError == null) {
            interpretError =
                    "json: cannot unmarshal "
                            + describe(t)
                            + " into Go struct field ."
                            + key
                            + " of type string";
        }
    }

    private void strict(StrictProblem.Kind kind, String key) {
        if (strict.size() >= MAX_STRICT_ERRORS) {
            return;
        }
        StrictProblem problem = new StrictProblem(kind, pathWith(key));
        if (strictSeen.add(problem.message())) {
            strict.add(problem);
        }
    }

    private void yamlDuplicate(String key) {
        int line = p.currentTokenLocation().getLineNr();
        yamlDuplicates.add(
                "line " + line + ": key " + FieldError.quote(key) + " already set in map");
        yamlDuplicatePaths.add(pathWith(key));
    }

    private String pathWith(String key) {
        return strictPath.isEmpty() ? key : strictPath + "." + key;
    }

    private void pushKey(String key) {
        if (!strictPath.isEmpty()) {
            strictPath.append('.');
        }
        strictPath.append(key);
    }

    private Optional<BigInteger> wholeNumber() throws IOException {
        try {
            BigDecimal d = p.getDecimalValue().stripTrailingZeros();
            return d.scale() <= 0 ? Optional.of(d.toBigIntegerExact()) : Optional.empty();
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private JsonNode integerNode(BigInteger v) {
        if (v.bitLength() < 32) {
            return nodes.numberNode(v.intValue());
        }
        return v.bitLength() < 64 ? nodes.numberNode(v.longValue()) : nodes.numberNode(v);
    }

    private static boolean fits(BigInteger v, String goType) {
        return goType.equals("int32")
                ? v.compareTo(INT32_MIN) >= 0 && v.compareTo(INT32_MAX) <= 0
                : v.compareTo(INT64_MIN) >= 0 && v.compareTo(INT64_MAX) <= 0;
    }

    /** Go's zero value for an element that was {@code null}. */
    private JsonNode zero(SchemaNode s) {
        return switch (s.type()) {
            case STRING -> nodes.textNode("");
            case INTEGER, NUMBER, INT_OR_STRING -> nodes.numberNode(0);
            case BOOLEAN -> nodes.booleanNode(false);
            case QUANTITY -> nodes.textNode("0");
            case OBJECT -> nodes.objectNode();
            default -> nodes.nullNode();
        };
    }

    /** Go's name for the JSON value in decoding errors. */
    private static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "object";
            case START_ARRAY -> "array";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            default -> "string";
        };
    }
}
