package io.kubepekko.api.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The structural type of one position in an object: what JSON value is allowed there and, for
 * objects, arrays and maps, what is allowed below it. Built-in kinds get theirs from {@link
 * ModelSchemas}; custom resources will build them from their OpenAPI schema.
 *
 * <p>Nodes are immutable once built. Object nodes are shared between every place a type is used and
 * may form cycles (a {@code JSONSchemaProps} contains {@code JSONSchemaProps}), so code walking a
 * schema must be driven by data, never by recursing over the schema alone.
 */
public final class SchemaNode {

    /** The kinds of structural types. */
    public enum Type {
        /** Named properties, each with its own schema. */
        OBJECT,
        /** A list; {@link #items()} is the element schema. */
        ARRAY,
        /** String keys to values of one schema ({@link #items()}). */
        MAP,
        STRING,
        INTEGER,
        NUMBER,
        BOOLEAN,
        /** An integer or a string ({@code intstr.IntOrString}). */
        INT_OR_STRING,
        /** A resource quantity: a string such as {@code 500m} or a plain number. */
        QUANTITY,
        /** An RFC 3339 timestamp string. */
        DATE_TIME,
        /** Binary data as a standard base64 string. */
        BYTES,
        /** Any JSON value, preserved as given (RawExtension, FieldsV1, untyped values). */
        ANY
    }

    private final Type type;
    private final String description;
    private final String goType;
    private SchemaNode items;
    private Map<String, SchemaNode> properties = Map.of();
    private Set<String> required = Set.of();

    /** For a described view of a shared object type: the node holding the structure. */
    private SchemaNode structure;

    private SchemaNode(Type type, String description, String goType) {
        this.type = Objects.requireNonNull(type);
        this.description = description;
        this.goType = goType;
    }

    /** A leaf (any type but OBJECT, ARRAY and MAP). */
    public static SchemaNode scalar(Type type, String goType, String description) {
        if (type == Type.OBJECT || type == Type.ARRAY || type == Type.MAP) {
            throw new IllegalArgumentException(type + " is not a scalar type");
        }
        return new SchemaNode(type, description, goType);
    }

    public static SchemaNode any(String description) {
        return new SchemaNode(Type.ANY, description, null);
    }

    public static SchemaNode array(SchemaNode items, String description) {
        SchemaNode n = new SchemaNode(Type.ARRAY, description, "[]" + items.goType());
        n.items = items;
        return n;
    }

    public static SchemaNode map(SchemaNode values, String description) {
        SchemaNode n = new SchemaNode(Type.MAP, description, "map[string]" + values.goType());
        n.items = values;
        return n;
    }

    /** An object with the given properties (in the given order) and required property names. */
    public static SchemaNode object(
            String goType,
            String description,
            Map<String, SchemaNode> properties,
            Set<String> required) {
        SchemaNode n = new SchemaNode(Type.OBJECT, description, goType);
        n.define(properties, required);
        return n;
    }

    /**
     * An object whose properties are supplied later with {@link #define}, so that a type can refer
     * to itself. Only builders in this package use it, and they define the node before anyone else
     * sees it.
     */
    static SchemaNode objectPlaceholder(String goType, String description) {
        return new SchemaNode(Type.OBJECT, description, goType);
    }

    /**
     * The same object type seen from a field with its own description. It reads its structure from
     * {@code shared}, which may still be under construction (a type containing itself).
     */
    static SchemaNode described(SchemaNode shared, String description) {
        SchemaNode n = new SchemaNode(shared.type, description, shared.goType);
        n.structure = shared.structure != null ? shared.structure : shared;
        return n;
    }

    void define(Map<String, SchemaNode> props, Set<String> req) {
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(props));
        this.required = Collections.unmodifiableSet(new LinkedHashSet<>(req));
    }

    public Type type() {
        return type;
    }

    /**
     * The human description (from the API's documentation), or {@code null}. For a property, this
     * is the property's own description; see {@link #typeDescription()} for its type's.
     */
    public String description() {
        return description;
    }

    /**
     * For an OBJECT, the description of its type ({@code PodSpec is a description of a pod.})
     * rather than of the field holding it; for other nodes the same as {@link #description()}.
     */
    public String typeDescription() {
        return structure != null ? structure.description : description;
    }

    /**
     * The Go type name Kubernetes would print for this position in decoding errors, such as {@code
     * v1.PodSpec}, {@code []v1.Container} or {@code int32}.
     */
    public String goType() {
        return goType != null
                ? goType
                : switch (type) {
                    case STRING, DATE_TIME -> "string";
                    case INTEGER -> "int64";
                    case NUMBER -> "float64";
                    case BOOLEAN -> "bool";
                    case BYTES -> "[]uint8";
                    case INT_OR_STRING -> "intstr.IntOrString";
                    case QUANTITY -> "resource.Quantity";
                    case OBJECT -> "map[string]interface {}";
                    default -> "interface {}";
                };
    }

    /**
     * The Go struct name without its package ({@code PodSpec}), as Go prints it in field errors.
     */
    public String goStructName() {
        String t = goType();
        int dot = t.lastIndexOf('.');
        return dot < 0 ? t : t.substring(dot + 1);
    }

    /** Element schema of an ARRAY, value schema of a MAP, {@code null} otherwise. */
    public SchemaNode items() {
        return structure != null ? structure.items : items;
    }

    /** Properties of an OBJECT in declaration order; empty for other types. */
    public Map<String, SchemaNode> properties() {
        return structure != null ? structure.properties : properties;
    }

    public Optional<SchemaNode> property(String name) {
        return Optional.ofNullable(properties().get(name));
    }

    /** Names of the required properties of an OBJECT. */
    public Set<String> required() {
        return structure != null ? structure.required : required;
    }

    @Override
    public String toString() {
        return switch (type) {
            case OBJECT -> "OBJECT(" + goType() + ")";
            case ARRAY -> "ARRAY(" + items().type + ")";
            case MAP -> "MAP(" + items().type + ")";
            default -> type.name();
        };
    }
}
