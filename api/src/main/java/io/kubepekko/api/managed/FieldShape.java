package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.FieldMerge;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtoField;
import io.kubepekko.api.schema.FieldDefaults;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How server-side apply treats one field, from its type's merge metadata: as a single value (a
 * scalar, or an atomic list, map or struct), a struct of named fields, a granular map, an
 * associative list (items keyed by fields) or a set. Every walker of typed objects (field sets,
 * comparison, merge, removal) resolves fields here, so they agree on what a path element means.
 *
 * @param kind how the field merges
 * @param valueType the protobuf message of the struct, of a map's values or of a list's items
 *     (null: none or untyped)
 * @param keys the key fields of an associative list
 * @param keyDefaults the declared defaults of key fields, by name, which complete a key an item
 *     leaves out
 */
public record FieldShape(
        Kind kind, String valueType, List<String> keys, Map<String, JsonNode> keyDefaults) {

    /** The shape of a struct of protobuf message {@code type} (null: an untyped object). */
    public static FieldShape struct(String type) {
        return new FieldShape(Kind.STRUCT, type, List.of(), Map.of());
    }

    /** The ways a field merges. */
    public enum Kind {
        /**
         * Replaced whole: scalars, atomic lists, maps and structs, and unknown fields of typed
         * structs.
         */
        LEAF,
        /**
         * Named fields, each merged by its own shape ({@code valueType} null: an untyped object).
         */
        STRUCT,
        /**
         * String keys, each entry a member of its own; object values of {@code valueType} merge as
         * structs.
         */
        MAP,
        /** Items identified by their {@code keys} ({@code k:} path elements). */
        LIST_MAP,
        /** Scalar items identified by their value ({@code v:} path elements). */
        LIST_SET
    }

    private static final FieldShape LEAF = new FieldShape(Kind.LEAF, null, List.of(), Map.of());
    private static final FieldShape UNTYPED_STRUCT =
            new FieldShape(Kind.STRUCT, null, List.of(), Map.of());

    /**
     * The shape of field {@code name} of {@code type} holding {@code value}. Fields below an
     * untyped object ({@code type} null) are untyped too: objects merge key by key, everything else
     * is a leaf.
     */
    public static FieldShape of(MergeMetadata metadata, String type, String name, JsonNode value) {
        MergeMetadata.Field field = metadata.field(type, name);
        ProtoField proto = metadata.protoField(type, name);
        FieldMerge merge = field.merge();
        if (proto == null) {
            return type == null && value != null && value.isObject() ? UNTYPED_STRUCT : LEAF;
        }
        if (proto.isMap()) {
            return "atomic".equals(merge.mapType())
                    ? LEAF
                    : new FieldShape(Kind.MAP, field.valueType(), List.of(), Map.of());
        }
        if (proto.repeated()) {
            List<String> keys =
                    !merge.listMapKeys().isEmpty()
                            ? merge.listMapKeys()
                            : merge.patchMergeKey() == null
                                    ? List.of()
                                    : List.of(merge.patchMergeKey());
            String listType =
                    merge.listType() != null
                            ? merge.listType()
                            : merge.mergesList() ? (keys.isEmpty() ? "set" : "map") : "atomic";
            return switch (listType) {
                case "map" ->
                        new FieldShape(
                                Kind.LIST_MAP,
                                field.valueType(),
                                keys,
                                keyDefaults(field.valueType(), keys));
                case "set" -> new FieldShape(Kind.LIST_SET, field.valueType(), List.of(), Map.of());
                default -> LEAF;
            };
        }
        if (field.valueType() != null
                && !metadata.atomicStruct(field.valueType())
                && !"atomic".equals(merge.structType())) {
            return new FieldShape(Kind.STRUCT, field.valueType(), List.of(), Map.of());
        }
        return LEAF;
    }

    private static Map<String, JsonNode> keyDefaults(String itemType, List<String> keys) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (String k : keys) {
            JsonNode d = itemType == null ? null : FieldDefaults.builtin().of(itemType, k);
            if (d != null && d.isValueNode()) {
                out.put(k, d);
            }
        }
        return Map.copyOf(out);
    }

    /**
     * The shape of one entry of a granular map: a struct when the map's values are structs, else a
     * leaf.
     */
    public FieldShape entry(JsonNode value) {
        return valueType != null && value != null && value.isObject()
                ? new FieldShape(Kind.STRUCT, valueType, List.of(), Map.of())
                : LEAF;
    }

    /**
     * The path element of one item of this list: {@code k:} with its key fields, or {@code v:} with
     * its value.
     */
    public String itemElement(JsonNode item) {
        if (kind == Kind.LIST_MAP && item.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (String k : keys) {
                if (item.hasNonNull(k)) {
                    sorted.put(k, item.get(k));
                } else if (keyDefaults.containsKey(k)) {
                    sorted.put(k, keyDefaults.get(k));
                }
            }
            ObjectNode key = JsonNodeFactory.instance.objectNode();
            sorted.forEach(key::set);
            return "k:" + Json.string(key);
        }
        return "v:" + Json.string(item);
    }

    /** Whether items of this list are structs walked field by field (associative list items). */
    public boolean structItems(JsonNode item) {
        return kind == Kind.LIST_MAP && item.isObject();
    }
}
