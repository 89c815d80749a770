package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields of an object as server-side apply sees them, by its type's merge metadata: leaves
 * ({@code f:} paths), associative list items ({@code k:} with the item's key fields), set items
 * ({@code v:}), atomic lists, maps and structs as single leaves, granular maps and list items as
 * members themselves. Compares two versions of an object into added, modified and removed fields.
 */
public final class TypedFields {

    /** What compare found, each without the fields Kubernetes never tracks. */
    public record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {}

    /**
     * A node that is a member itself (a map, a list item): equal in both versions whatever its
     * content.
     */
    private static final JsonNode NODE = JsonNodeFactory.instance.textNode("\u0000node");

    /**
     * A granular map in {@link #flatten}: a member of an updater's set, but not of an applier's.
     */
    static final JsonNode MAP_NODE = JsonNodeFactory.instance.textNode("\u0000map");

    private static final Set<String> UNTRACKED_META =
            Set.of(
                    "name",
                    "namespace",
                    "creationTimestamp",
                    "selfLink",
                    "uid",
                    "clusterName",
                    "generation",
                    "managedFields",
                    "resourceVersion");

    private final MergeMetadata metadata;

    public TypedFields(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /** Compares two versions of an object of {@code type} ({@code before} null: a create). */
    public Comparison compare(ObjectNode before, ObjectNode after, String type) {
        FieldSet.Builder added = new FieldSet.Builder();
        FieldSet.Builder modified = new FieldSet.Builder();
        FieldSet.Builder removed = new FieldSet.Builder();
        Diff diff = new Diff(added, modified, removed);
        if (before == null) {
            return new Comparison(fields(after, type), FieldSet.EMPTY, FieldSet.EMPTY);
        } else {
            diffStruct(before, after, type, List.of(), TOP_LEVEL_UNTRACKED, diff);
        }
        return new Comparison(added.build(), modified.build(), removed.build());
    }

    private record Diff(
            FieldSet.Builder added, FieldSet.Builder modified, FieldSet.Builder removed) {}

    private static final Set<String> TOP_LEVEL_UNTRACKED = Set.of("apiVersion", "kind");

    /**
     * Compares two versions of a struct field by field, skipping every field equal in both (most of
     * an update) and descending into non-empty structs; any other differing field is compared as
     * the paths {@link #flatten} gives it, so the result is exactly the flattened comparison, only
     * cheaper.
     */
    private void diffStruct(
            JsonNode before,
            JsonNode after,
            String type,
            List<String> path,
            Set<String> skip,
            Diff diff) {
        Set<String> names = new LinkedHashSet<>();
        before.fieldNames().forEachRemaining(names::add);
        after.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            if (skip.contains(name)) {
                continue;
            }
            JsonNode b = present(before.get(name));
            JsonNode a = present(after.get(name));
            if (b == null && a == null || b != null && b.equals(a)) {
                continue;
            }
            List<String> p = append(path, "f:" + name);
            if (path.isEmpty() && name.equals("metadata")) {
                JsonNode b0 = b == null ? EMPTY : b;
                JsonNode a0 = a == null ? EMPTY : a;
                diffStruct(
                        b0,
                        a0,
                        FieldShape.of(metadata, type, name, a0).valueType(),
                        p,
                        UNTRACKED_META,
                        diff);
                continue;
            }
            if (b != null && a != null && structured(b, type, name) && structured(a, type, name)) {
                diffStruct(
                        b,
                        a,
                        FieldShape.of(metadata, type, name, a).valueType(),
                        p,
                        Set.of(),
                        diff);
                continue;
            }
            Map<List<String>, JsonNode> was = new LinkedHashMap<>();
            Map<List<String>, JsonNode> is = new LinkedHashMap<>();
            if (b != null) {
                walkField(b, type, name, p, was);
            }
            if (a != null) {
                walkField(a, type, name, p, is);
            }
            for (Map.Entry<List<String>, JsonNode> e : is.entrySet()) {
                JsonNode old = was.get(e.getKey());
                if (old == null) {
                    diff.added().add(e.getKey());
                } else if (!old.equals(e.getValue())) {
                    diff.modified().add(e.getKey());
                }
            }
            for (List<String> gone : was.keySet()) {
                if (!is.containsKey(gone)) {
                    diff.removed().add(gone);
                }
            }
        }
    }

    private static final ObjectNode EMPTY = JsonNodeFactory.instance.objectNode();

    /** A field {@link #walkStruct} would walk into: a non-empty object of a struct shape. */
    private boolean structured(JsonNode value, String type, String name) {
        return value.isObject()
                && !value.isEmpty()
                && FieldShape.of(metadata, type, name, value).kind() == FieldShape.Kind.STRUCT;
    }

    /** Nulls are absent, as {@link #walkStruct} treats them. */
    private static JsonNode present(JsonNode v) {
        return v == null || v.isNull() ? null : v;
    }

    /** Every tracked field of an object (its field set): what a create's writer owns. */
    public FieldSet fields(ObjectNode object, String type) {
        return walkInto(object, type, true);
    }

    /**
     * The fields an applied configuration sets, as server-side apply records an applier's
     * ownership: like {@link #fields}, except that a granular map is not a member itself (only its
     * entries are).
     */
    public FieldSet applied(ObjectNode config, String type) {
        return walkInto(config, type, false);
    }

    /**
     * The object's fields walked straight into a set (no flattened paths: every write computes
     * one), with granular maps as members themselves or not.
     */
    private FieldSet walkInto(ObjectNode object, String type, boolean mapMembers) {
        FieldSet.Builder root = new FieldSet.Builder();
        Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            JsonNode value = e.getValue();
            if (name.equals("apiVersion") || name.equals("kind") || value.isNull()) {
                continue;
            }
            if (name.equals("metadata") && value.isObject()) {
                FieldShape meta = FieldShape.of(metadata, type, name, value);
                FieldSet.Builder node = root.child("f:metadata");
                value.properties()
                        .iterator()
                        .forEachRemaining(
                                m -> {
                                    if (!UNTRACKED_META.contains(m.getKey())
                                            && !m.getValue().isNull()) {
                                        setField(
                                                m.getValue(),
                                                meta.valueType(),
                                                m.getKey(),
                                                node.child("f:" + m.getKey()),
                                                mapMembers);
                                    }
                                });
                continue;
            }
            setField(value, type, name, root.child("f:" + name), mapMembers);
        }
        return root.build();
    }

    /**
     * {@link #walkField}'s walk into {@code node}; a granular map is a member when {@code
     * mapMembers}.
     */
    private void setField(
            JsonNode value, String type, String name, FieldSet.Builder node, boolean mapMembers) {
        FieldShape shape = FieldShape.of(metadata, type, name, value);
        switch (shape.kind()) {
            case STRUCT -> {
                if (value.isObject() && !value.isEmpty()) {
                    setStruct(value, shape.valueType(), node, mapMembers);
                } else {
                    node.member();
                }
            }
            case MAP -> {
                if (!value.isObject()) {
                    node.member();
                    return;
                }
                if (mapMembers) {
                    node.member();
                }
                value.properties()
                        .iterator()
                        .forEachRemaining(
                                e -> {
                                    FieldSet.Builder entryNode = node.child("f:" + e.getKey());
                                    FieldShape entry = shape.entry(e.getValue());
                                    if (entry.kind() == FieldShape.Kind.STRUCT
                                            && !e.getValue().isEmpty()) {
                                        setStruct(
                                                e.getValue(),
                                                entry.valueType(),
                                                entryNode,
                                                mapMembers);
                                    } else {
                                        entryNode.member();
                                    }
                                });
            }
            case LIST_MAP, LIST_SET -> {
                if (!value.isArray()) {
                    node.member();
                    return;
                }
                for (JsonNode item : value) {
                    FieldSet.Builder itemNode = node.child(shape.itemElement(item)).member();
                    if (shape.structItems(item)) {
                        setStruct(item, shape.valueType(), itemNode, mapMembers);
                    }
                }
            }
            default -> node.member();
        }
    }

    private void setStruct(
            JsonNode object, String type, FieldSet.Builder node, boolean mapMembers) {
        object.properties()
                .iterator()
                .forEachRemaining(
                        e -> {
                            if (!e.getValue().isNull()) {
                                setField(
                                        e.getValue(),
                                        type,
                                        e.getKey(),
                                        node.child("f:" + e.getKey()),
                                        mapMembers);
                            }
                        });
    }

    Map<List<String>, JsonNode> flatten(ObjectNode object, String type) {
        Map<List<String>, JsonNode> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (name.equals("apiVersion") || name.equals("kind") || e.getValue().isNull()) {
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

    private void walkStruct(
            JsonNode object, String type, List<String> path, Map<List<String>, JsonNode> out) {
        Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull()) {
                walkField(e.getValue(), type, e.getKey(), append(path, "f:" + e.getKey()), out);
            }
        }
    }

    private void walkField(
            JsonNode value,
            String type,
            String name,
            List<String> path,
            Map<List<String>, JsonNode> out) {
        FieldShape shape = FieldShape.of(metadata, type, name, value);
        switch (shape.kind()) {
            case STRUCT -> {
                if (value.isObject() && !value.isEmpty()) {
                    walkStruct(
                            value, shape.valueType(), path, out); // a struct is not a member itself
                } else {
                    out.put(path, value);
                }
            }
            case MAP -> {
                if (!value.isObject()) {
                    out.put(path, value);
                    return;
                }
                out.put(path, MAP_NODE);
                Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    List<String> p = append(path, "f:" + e.getKey());
                    FieldShape entry = shape.entry(e.getValue());
                    if (entry.kind() == FieldShape.Kind.STRUCT && !e.getValue().isEmpty()) {
                        walkStruct(e.getValue(), entry.valueType(), p, out);
                    } else {
                        out.put(p, e.getValue());
                    }
                }
            }
            case LIST_MAP, LIST_SET -> {
                if (!value.isArray()) {
                    out.put(path, value);
                    return;
                }
                for (JsonNode item : value) {
                    List<String> p = append(path, shape.itemElement(item));
                    out.put(p, NODE);
                    if (shape.structItems(item)) {
                        walkStruct(item, shape.valueType(), p, out);
                    }
                }
            }
            default -> out.put(path, value);
        }
    }

    private static List<String> append(List<String> path, String element) {
        List<String> p = new ArrayList<>(path.size() + 1);
        p.addAll(path);
        p.add(element);
        return List.copyOf(p);
    }
}
