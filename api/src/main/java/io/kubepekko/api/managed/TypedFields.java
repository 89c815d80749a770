package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.FieldMerge;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtoField;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fields of an object as server-side apply sees them, by its type's merge metadata: leaves
 * ({@code f:} paths), associative list items ({@code k:} with the item's key fields), set items
 * ({@code v:}), atomic lists, maps and structs as single leaves, granular maps and list items as
 * members themselves. Compares two versions of an object into added, modified and removed fields.
 */
public final class TypedFields {

    /** What compare found, each without the fields Kubernetes never tracks. */
    public record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {}

    /** A node that is a member itself (a map, a list item): equal in both versions whatever its content. */
    private static final JsonNode NODE = JsonNodeFactory.instance.textNode("\u0000node");
    private static final Set<String> UNTRACKED_META = Set.of("name", "namespace", "creationTimestamp", "selfLink",
            "uid", "clusterName", "generation", "managedFields", "resourceVersion");

    private final MergeMetadata metadata;

    public TypedFields(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /** Compares two versions of an object of {@code type} ({@code before} null: a create). */
    public Comparison compare(ObjectNode before, ObjectNode after, String type) {
        Map<List<String>, JsonNode> a = before == null ? Map.of() : flatten(before, type);
        Map<List<String>, JsonNode> b = flatten(after, type);
        FieldSet.Builder added = new FieldSet.Builder();
        FieldSet.Builder modified = new FieldSet.Builder();
        FieldSet.Builder removed = new FieldSet.Builder();
        for (Map.Entry<List<String>, JsonNode> e : b.entrySet()) {
            JsonNode old = a.get(e.getKey());
            if (old == null) {
                added.add(e.getKey());
            } else if (!old.equals(e.getValue())) {
                modified.add(e.getKey());
            }
        }
        for (List<String> path : a.keySet()) {
            if (!b.containsKey(path)) {
                removed.add(path);
            }
        }
        return new Comparison(added.build(), modified.build(), removed.build());
    }

    /** Every tracked field of an object (its field set). */
    public FieldSet fields(ObjectNode object, String type) {
        FieldSet.Builder out = new FieldSet.Builder();
        for (List<String> path : flatten(object, type).keySet()) {
            out.add(path);
        }
        return out.build();
    }

    private Map<List<String>, JsonNode> flatten(ObjectNode object, String type) {
        Map<List<String>, JsonNode> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = object.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (name.equals("apiVersion") || name.equals("kind")) {
                continue;
            }
            if (name.equals("metadata") && e.getValue().isObject()) {
                ObjectNode meta = e.getValue().deepCopy();
                UNTRACKED_META.forEach(meta::remove);
                if (!meta.isEmpty()) {
                    walkField(meta, type, name, List.of("f:metadata"), out);
                }
                continue;
            }
            walkField(e.getValue(), type, name, List.of("f:" + name), out);
        }
        return out;
    }

    private void walkStruct(JsonNode object, String type, List<String> path, Map<List<String>, JsonNode> out) {
        Iterator<Map.Entry<String, JsonNode>> it = object.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull()) {
                walkField(e.getValue(), type, e.getKey(), append(path, "f:" + e.getKey()), out);
            }
        }
    }

    private void walkField(JsonNode value, String type, String name, List<String> path,
                           Map<List<String>, JsonNode> out) {
        MergeMetadata.Field field = metadata.field(type, name);
        ProtoField proto = metadata.protoField(type, name);
        FieldMerge merge = field.merge();
        if (proto == null) {
            if (value.isObject() && type == null && !value.isEmpty()) {
                walkStruct(value, null, path, out); // untyped: granular as JSON
            } else {
                out.put(path, value);
            }
            return;
        }
        if (proto.isMap()) {
            if ("atomic".equals(merge.mapType()) || !value.isObject()) {
                out.put(path, value);
                return;
            }
            out.put(path, NODE);
            Iterator<Map.Entry<String, JsonNode>> it = value.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                List<String> p = append(path, "f:" + e.getKey());
                if (field.valueType() != null && e.getValue().isObject() && !e.getValue().isEmpty()) {
                    walkStruct(e.getValue(), field.valueType(), p, out);
                } else {
                    out.put(p, e.getValue());
                }
            }
            return;
        }
        if (proto.repeated()) {
            List<String> keys = !merge.listMapKeys().isEmpty() ? merge.listMapKeys()
                    : merge.patchMergeKey() == null ? List.of() : List.of(merge.patchMergeKey());
            String listType = merge.listType() != null ? merge.listType()
                    : merge.mergesList() ? (keys.isEmpty() ? "set" : "map") : "atomic";
            if (!value.isArray() || listType.equals("atomic")) {
                out.put(path, value);
                return;
            }
            for (JsonNode item : value) {
                if (listType.equals("map") && item.isObject()) {
                    List<String> p = append(path, keyElement(item, keys));
                    out.put(p, NODE);
                    walkStruct(item, field.valueType(), p, out);
                } else {
                    out.put(append(path, "v:" + Json.string(item)), NODE);
                }
            }
            return;
        }
        if (field.valueType() != null && value.isObject() && !value.isEmpty()
                && !metadata.atomicStruct(field.valueType()) && !"atomic".equals(merge.structType())) {
            walkStruct(value, field.valueType(), path, out); // a struct is not a member itself
            return;
        }
        out.put(path, value);
    }

    /** {@code k:} with the item's key fields, sorted by name, as compact JSON. */
    private static String keyElement(JsonNode item, List<String> keys) {
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        for (String k : keys) {
            if (item.has(k)) {
                sorted.put(k, item.get(k));
            }
        }
        ObjectNode key = JsonNodeFactory.instance.objectNode();
        sorted.forEach(key::set);
        return "k:" + Json.string(key);
    }

    private static List<String> append(List<String> path, String element) {
        List<String> p = new ArrayList<>(path.size() + 1);
        p.addAll(path);
        p.add(element);
        return List.copyOf(p);
    }
}
