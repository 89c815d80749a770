package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;

import java.util.List;

/** Small builders for the schema fragments the documents repeat. */
final class Schemas {
    private Schemas() {}

    static final String GVK_EXTENSION = "x-kubernetes-group-version-kind";

    /** {@code {"$ref": "#/components/schemas/<name>"}}. */
    static ObjectNode refOnly(String schemaName) {
        ObjectNode ref = Json.MAPPER.createObjectNode();
        ref.put("$ref", "#/components/schemas/" + schemaName);
        return ref;
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

    /** A schema with only a type, for list items. */
    static ObjectNode plain(String type) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("type", type);
        return s;
    }

    static ObjectNode typed(String type, String description) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        s.put("type", type);
        return s;
    }

    static ObjectNode int64(String description) {
        ObjectNode s = typed("integer", description);
        s.put("format", "int64");
        return s;
    }

    static ObjectNode int32(String description) {
        ObjectNode s = typed("integer", description);
        s.put("format", "int32");
        return s;
    }

    static ObjectNode dateTime(String description) {
        ObjectNode s = typed("string", description);
        s.put("format", "date-time");
        return s;
    }

    static ObjectNode arrayOf(ObjectNode items, String description) {
        ObjectNode s = typed("array", description);
        s.set("items", items);
        return s;
    }

    static ObjectNode stringMap(String description) {
        ObjectNode s = typed("object", description);
        s.putObject("additionalProperties").put("type", "string");
        return s;
    }

    /** The GVK as an object: the form operations carry and kubectl's validator reads. */
    static ObjectNode gvkObject(GroupVersionKind gvk) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("group", gvk.group());
        o.put("version", gvk.version());
        o.put("kind", gvk.kind());
        return o;
    }

    /** The GVKs as a list: the form component schemas carry ({@code kubectl explain} reads it). */
    static ArrayNode gvkList(List<GroupVersionKind> gvks) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        gvks.forEach(g -> a.add(gvkObject(g)));
        return a;
    }
}
