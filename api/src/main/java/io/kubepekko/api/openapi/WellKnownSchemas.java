package io.kubepekko.api.openapi;

import static io.kubepekko.api.protobuf.WellKnownTypes.DURATION;
import static io.kubepekko.api.protobuf.WellKnownTypes.FIELDS_V1;
import static io.kubepekko.api.protobuf.WellKnownTypes.INT_OR_STRING;
import static io.kubepekko.api.protobuf.WellKnownTypes.MICRO_TIME;
import static io.kubepekko.api.protobuf.WellKnownTypes.QUANTITY;
import static io.kubepekko.api.protobuf.WellKnownTypes.RAW_EXTENSION;
import static io.kubepekko.api.protobuf.WellKnownTypes.TIME;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;

/**
 * The components of the apimachinery types that have a JSON form of their own instead of fields
 * (timestamps, int-or-string, quantities, field sets, embedded objects), shaped as kube-apiserver
 * publishes them in OpenAPI v3: IntOrString and Quantity as a {@code oneOf} of their JSON types,
 * timestamps as {@code date-time} strings. The client models map these to Java types and carry no
 * description of them, so the descriptions are ours.
 */
final class WellKnownSchemas {
    private WellKnownSchemas() {}

    /**
     * The component of a well-known type of our message definitions, or null for any other type.
     */
    static ObjectNode of(String type) {
        ObjectNode schema =
                switch (type) {
                    case TIME ->
                            dateTime(
                                    "A point in time in RFC 3339 form, such as 2024-05-01T12:00:00Z, precise to "
                                            + "the second.");
                    case MICRO_TIME ->
                            dateTime(
                                    "A point in time in RFC 3339 form with microseconds, such as "
                                            + "2024-05-01T12:00:00.123456Z.");
                    case DURATION ->
                            Schemas.typed(
                                    "string", "A duration in Go's notation, such as 90s or 1h30m.");
                    case FIELDS_V1 ->
                            Schemas.typed(
                                    "object",
                                    "A set of fields as a JSON trie, as structured-merge-diff "
                                            + "writes it: each key is f:<name> (a field or map key), v:<value> (a set item), i:<index> or "
                                            + "k:<keys> (a list item by its keys), and \".\" stands for the field itself.");
                    case RAW_EXTENSION ->
                            Schemas.typed(
                                    "object",
                                    "An embedded object, kept as it was sent; its "
                                            + "apiVersion and kind say what it is.");
                    case INT_OR_STRING ->
                            oneOf(
                                            "An int32 or a string. JSON carries the value as it is, so the field "
                                                    + "accepts a number or a name (a port name, or a percentage such as \"25%\").",
                                            "integer", "string")
                                    .put("format", "int-or-string");
                    case QUANTITY ->
                            oneOf(
                                    "A fixed-point number with an optional suffix: binary SI (Ki, Mi, Gi, Ti, Pi, "
                                            + "Ei), decimal SI (m, k, M, G, T, P, E) or a decimal exponent (e3, E6), such as 500m, 128Mi "
                                            + "or 1.5. No quantity exceeds 2^63-1 or has more than three decimal places; the server "
                                            + "writes it back in canonical form.",
                                    "string",
                                    "number");
                    default -> null;
                };
        return schema == null ? null : Schemas.sortedKeys(schema);
    }

    /** Whether a type of our message definitions is one of {@link #of}'s. */
    static boolean isWellKnown(String type) {
        return of(type) != null;
    }

    private static ObjectNode dateTime(String description) {
        return Schemas.typed("string", description).put("format", "date-time");
    }

    /**
     * {@code oneOf} the given JSON types: how kube-openapi publishes a type with two JSON forms in
     * v3.
     */
    private static ObjectNode oneOf(String description, String... types) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        ArrayNode alternatives = s.putArray("oneOf");
        for (String t : types) {
            alternatives.addObject().put("type", t);
        }
        return s;
    }
}
