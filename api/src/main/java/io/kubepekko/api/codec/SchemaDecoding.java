package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.schema.SchemaNode;
import java.io.IOException;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One pass over a token stream, building the object a typed Kubernetes decode would keep: fields
 * the schema does not know are dropped, and what Go's strict JSON decoding (sigs.k8s.io/json) would
 * report is recorded in the same order, wording and paths: unknown and duplicate fields, and the
 * first value of the wrong type. For YAML, duplicate keys anywhere are recorded as the YAML
 * converter words them ({@code line 4: key "name" already set in map}).
 *
 * <p>This class walks the structure (objects, maps, arrays, untyped values); {@link ScalarDecoding}
 * turns each scalar into its Go value and {@link DecodeReport} keeps the position and the findings.
 *
 * <p>Driven by the data, never by the schema alone, so recursive schemas terminate.
 */
final class SchemaDecoding {
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

    private final JsonParser p;
    private final boolean yaml;

    /**
     * Whether empty maps and lists of omitempty fields are left out, as Go's encoding of the result
     * does.
     */
    private final boolean omitEmpty;

    private final JsonNodeFactory nodes = Json.MAPPER.getNodeFactory();
    private final DecodeReport report = new DecodeReport();
    private final ScalarDecoding scalars;

    private String interpretError;
    private String bodyApiVersion;
    private String bodyKind;

    private SchemaDecoding(JsonParser p, boolean yaml, boolean omitEmpty) {
        this.p = p;
        this.yaml = yaml;
        this.omitEmpty = omitEmpty;
        this.scalars = new ScalarDecoding(p, yaml, nodes, report);
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
                                + DecodeReport.describe(t)
                                + " into Go value of type "
                                + TYPE_META_STRUCT;
                skipValue();
            }
        } catch (FatalDecodeError f) {
            report.fatal(f.getMessage());
        }
        return new Outcome(
                object,
                report.strictProblems(),
                report.yamlDuplicates(),
                report.yamlDuplicatePaths(),
                report.typeError(),
                interpretError,
                bodyApiVersion,
                bodyKind);
    }

    private JsonNode value(SchemaNode s, JsonNode existing) throws IOException, FatalDecodeError {
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
            case STRING, BOOLEAN, INTEGER, NUMBER, BYTES ->
                    t.isStructStart() ? mismatch(t, s.goType()) : plainScalar(t, s);
            case INT_OR_STRING -> scalars.intOrString(t);
            case QUANTITY -> scalars.quantity(t);
            case DATE_TIME -> scalars.dateTime(t);
        };
    }

    private JsonNode plainScalar(JsonToken t, SchemaNode s) throws IOException {
        return switch (s.type()) {
            case STRING -> scalars.string(t, s.goType());
            case BOOLEAN -> scalars.bool(t, s.goType());
            case INTEGER -> scalars.integer(t, s.goType());
            case NUMBER -> scalars.number(t, s.goType());
            case BYTES -> scalars.bytes(t, s.goType());
            default -> throw new IllegalArgumentException("not a plain scalar: " + s.type());
        };
    }

    private ObjectNode object(SchemaNode s, ObjectNode out, boolean root)
            throws IOException, FatalDecodeError {
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
                report.strict(StrictProblem.Kind.UNKNOWN, key);
                skipValue();
                continue;
            }
            if (duplicate) {
                if (yaml) {
                    yamlDuplicate(key);
                } else {
                    report.strict(StrictProblem.Kind.DUPLICATE, key);
                }
            }
            if (root) {
                interpretTypeMeta(key, vt);
            }
            DecodeReport.Mark mark = report.mark();
            report.enterStructField(s.goStructName(), key);
            // Go decodes a repeated struct or map field into what the first occurrence built; the
            // YAML converter has already kept only the last occurrence.
            JsonNode v = value(field, yaml ? null : out.get(key));
            report.restore(mark);
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

    private ObjectNode map(SchemaNode s, ObjectNode out) throws IOException, FatalDecodeError {
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            if (!seen.add(key)) {
                if (yaml) {
                    yamlDuplicate(key);
                } else {
                    report.strict(StrictProblem.Kind.DUPLICATE, key);
                }
            }
            DecodeReport.Mark mark = report.mark();
            report.enterKey(key);
            JsonNode v = value(s.items(), null);
            report.restore(mark);
            out.set(key, v == null ? scalars.zero(s.items()) : v);
        }
        return out;
    }

    private ArrayNode array(SchemaNode s) throws IOException, FatalDecodeError {
        ArrayNode out = nodes.arrayNode();
        int index = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            DecodeReport.Mark mark = report.mark();
            report.enterIndex(index++);
            JsonNode v = value(s.items(), null);
            report.restore(mark);
            out.add(v == null ? scalars.zero(s.items()) : v);
        }
        return out;
    }

    /**
     * Any value, kept as given. For YAML, duplicate keys are still reported, as the converter does.
     */
    private JsonNode generic() throws IOException, FatalDecodeError {
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
                    DecodeReport.Mark mark = report.mark();
                    report.enterKey(key);
                    o.set(key, generic());
                    report.restore(mark);
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = nodes.arrayNode();
                int index = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    DecodeReport.Mark mark = report.mark();
                    report.enterIndex(index++);
                    a.add(generic());
                    report.restore(mark);
                }
                return a;
            }
            case VALUE_STRING -> {
                return nodes.textNode(p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return scalars.integerNode(p.getBigIntegerValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                try {
                    return nodes.numberNode(p.getDecimalValue());
                } catch (NumberFormatException e) {
                    throw new FatalDecodeError("json: unsupported value: " + p.getText());
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
    private void skipValue() throws IOException, FatalDecodeError {
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
        report.saveError(report.unmarshalError(DecodeReport.describe(t), goType));
        try {
            skipValue();
        } catch (FatalDecodeError f) {
            // a later problem inside a value that is already wrong changes nothing
        }
        return null;
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
                            + DecodeReport.describe(t)
                            + " into Go struct field ."
                            + key
                            + " of type string";
        }
    }

    private void yamlDuplicate(String key) {
        report.yamlDuplicate(key, p.currentTokenLocation().getLineNr());
    }
}
