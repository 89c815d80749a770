package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Small builders for the schema fragments the documents repeat. */
final class Schemas {
    private Schemas() {}

    static final String GVK_EXTENSION = "x-kubernetes-group-version-kind";

    /** What a {@code $ref} to a component starts with. */
    static final String REF_PREFIX = "#/components/schemas/";

    /** {@code {"$ref": "#/components/schemas/<name>"}}. */
    static ObjectNode refOnly(String schemaName) {
        ObjectNode ref = Json.MAPPER.createObjectNode();
        ref.put("$ref", REF_PREFIX + schemaName);
        return ref;
    }

    /**
     * {@code schema} with a {@code $ref} that has siblings (description, default, extensions) moved
     * into {@code allOf}: OpenAPI 3.0 ignores the siblings of a {@code $ref}, so kube-apiserver
     * writes {@code {"allOf": [{"$ref": ...}], "description": ...}}, and a bare {@code $ref} only
     * when it is alone. Changes and returns {@code schema}.
     */
    static ObjectNode refInAllOf(ObjectNode schema) {
        if (schema.has("$ref") && schema.size() > 1) {
            JsonNode ref = schema.remove("$ref");
            schema.putArray("allOf").addObject().set("$ref", ref);
        }
        return schema;
    }

    /**
     * A copy of {@code node} with the keys of every object in it sorted (array order kept), as
     * Kubernetes writes its documents, so the bytes never depend on the order fields were found in.
     */
    static ObjectNode sortedKeys(ObjectNode node) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        new TreeMap<String, JsonNode>(toMap(node)).forEach((k, v) -> out.set(k, sortedKeys(v)));
        return out;
    }

    private static JsonNode sortedKeys(JsonNode node) {
        if (node instanceof ObjectNode o) {
            return sortedKeys(o);
        }
        if (node instanceof ArrayNode a) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            a.forEach(e -> out.add(sortedKeys(e)));
            return out;
        }
        return node;
    }

    private static Map<String, JsonNode> toMap(ObjectNode node) {
        Map<String, JsonNode> out = new HashMap<>();
        node.properties().iterator().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /**
     * A property that is a referenced schema with its own description. OpenAPI 3.0 ignores siblings
     * of {@code $ref}, so the reference sits in {@code allOf}, as kube-apiserver writes it.
     */
    static ObjectNode ref(String schemaName, String description) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        s.putArray("allOf").add(refOnly(schemaName));
        return s;
    }

    /** An object whose fields are not described (yet). */
    static ObjectNode openObject(String description) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        s.put("type", "object");
        s.put("x-kubernetes-preserve-unknown-fields", true);
        return s;
    }

    static ObjectNode typed(String type, String description) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        s.put("type", type);
        return s;
    }

    static ObjectNode arrayOf(ObjectNode items, String description) {
        ObjectNode s = typed("array", description);
        s.set("items", items);
        return s;
    }

    /** A list kind's schema in kube-apiserver's shape, for kinds without a model of their list. */
    static ObjectNode list(GroupVersionKind gvk, String listKind) {
        ObjectNode list = typed("object", listKind + " is a list of " + gvk.kind() + " objects.");
        ObjectNode p = list.putObject("properties");
        p.set(
                "apiVersion",
                typed("string", "The versioned schema of this object: " + gvk.apiVersion() + "."));
        ObjectNode item = refOnly(SchemaNames.of(gvk));
        item.putObject("default");
        p.set("items", arrayOf(refInAllOf(item), "The " + gvk.kind() + " objects."));
        p.set("kind", typed("string", "The type of this object: " + listKind + "."));
        ObjectNode metadata =
                ref(SchemaNames.LIST_META, "Standard list metadata: resourceVersion and continue.");
        metadata.putObject("default");
        p.set("metadata", metadata);
        list.putArray("required").add("items");
        return sortedKeys(list);
    }

    /** The GVK as an object: the form operations carry and kubectl's validator reads. */
    static ObjectNode gvkObject(GroupVersionKind gvk) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("group", gvk.group());
        o.put("kind", gvk.kind());
        o.put("version", gvk.version());
        return o;
    }

    /** The GVKs as a list: the form component schemas carry ({@code kubectl explain} reads it). */
    static ArrayNode gvkList(List<GroupVersionKind> gvks) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        gvks.forEach(g -> a.add(gvkObject(g)));
        return a;
    }
}
