package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI operations of one resource type of a group-version, as kube-apiserver publishes them:
 * operation ids, tags, the kind extension, parameters, request bodies and responses with their
 * media types.
 */
final class ResourceOperations {
    private static final List<String> OBJECT_MEDIA =
            List.of("application/json", "application/yaml", "application/vnd.kubernetes.protobuf");
    private static final List<String> STREAM_MEDIA =
            List.of(
                    "application/json",
                    "application/yaml",
                    "application/vnd.kubernetes.protobuf",
                    "application/json;stream=watch",
                    "application/vnd.kubernetes.protobuf;stream=watch");
    private static final List<String> PATCH_MEDIA =
            List.of(
                    "application/apply-patch+yaml",
                    "application/json-patch+json",
                    "application/merge-patch+json");

    private final GroupVersionKind gv;
    private final ResourceType t;

    ResourceOperations(GroupVersionKind gv, ResourceType t) {
        this.gv = gv;
        this.t = t;
    }

    ObjectNode read(String rest, String description, GroupVersionKind of, String schema) {
        ObjectNode op = operation("read", rest, description, "get", of, List.of());
        op.set("responses", responses(schema, OBJECT_MEDIA, "200"));
        return op;
    }

    /** list, watch (one object) and watchlist: all take the list parameters. */
    ObjectNode list(String action, String rest, String description) {
        String verb = action.equals("list") ? "list" : "watch";
        ObjectNode op = operation(verb, rest, description, action, t.gvk(), Parameters.LIST);
        String schema =
                action.equals("list")
                        ? SchemaNames.of(t.gvk(), t.listKind())
                        : SchemaNames.WATCH_EVENT;
        op.set("responses", responses(schema, STREAM_MEDIA, "200"));
        return op;
    }

    ObjectNode write(
            String verb,
            String rest,
            String description,
            String action,
            GroupVersionKind of,
            String schema,
            List<String> query,
            String... codes) {
        ObjectNode op = operation(verb, rest, description, action, of, query);
        op.set("requestBody", body(schema, OBJECT_MEDIA, true));
        op.set("responses", responses(schema, OBJECT_MEDIA, codes));
        return op;
    }

    ObjectNode patch(String rest, String description, GroupVersionKind of, String schema) {
        ObjectNode op = operation("patch", rest, description, "patch", of, Parameters.PATCH);
        op.set("requestBody", body(SchemaNames.PATCH, PATCH_MEDIA, true));
        op.set("responses", responses(schema, OBJECT_MEDIA, "200", "201"));
        return op;
    }

    ObjectNode delete(String namespaced) {
        ObjectNode op =
                operation(
                        "delete",
                        namespaced + t.kind(),
                        "Deletes the named " + t.kind() + ".",
                        "delete",
                        t.gvk(),
                        Parameters.DELETE);
        op.set("requestBody", body(SchemaNames.DELETE_OPTIONS, OBJECT_MEDIA, false));
        op.set("responses", responses(SchemaNames.STATUS, OBJECT_MEDIA, "200", "202"));
        return op;
    }

    ObjectNode deleteCollection(String namespaced) {
        ObjectNode op =
                operation(
                        "delete",
                        "Collection" + namespaced + t.kind(),
                        "Deletes the "
                                + t.kind()
                                + " objects"
                                + where(t)
                                + " that match the selectors.",
                        "deletecollection",
                        t.gvk(),
                        Parameters.DELETE_COLLECTION);
        op.set("requestBody", body(SchemaNames.DELETE_OPTIONS, OBJECT_MEDIA, false));
        op.set("responses", responses(SchemaNames.STATUS, OBJECT_MEDIA, "200"));
        return op;
    }

    private ObjectNode operation(
            String verb,
            String rest,
            String description,
            String action,
            GroupVersionKind of,
            List<String> query) {
        ObjectNode op = Json.MAPPER.createObjectNode();
        op.putArray("tags").add(OperationIds.tag(gv));
        op.put("description", description);
        op.put("operationId", OperationIds.of(verb, gv, rest));
        if (!query.isEmpty()) {
            op.set("parameters", Parameters.queries(query));
        }
        op.put("x-kubernetes-action", action);
        op.set(Schemas.GVK_EXTENSION, Schemas.gvkObject(of));
        return op;
    }

    /** How a description names where the objects are: " of a namespace" for namespaced kinds. */
    static String where(ResourceType t) {
        return t.namespaced() ? " of a namespace" : "";
    }

    private static ObjectNode body(String schema, List<String> media, boolean required) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ObjectNode content = body.putObject("content");
        media.forEach(m -> content.putObject(m).set("schema", Schemas.refOnly(schema)));
        if (required) {
            body.put("required", true);
        }
        return body;
    }

    private static final Map<String, String> REASONS =
            Map.of("200", "OK", "201", "Created", "202", "Accepted", "401", "Unauthorized");

    private static ObjectNode responses(String schema, List<String> media, String... codes) {
        ObjectNode responses = Json.MAPPER.createObjectNode();
        for (String code : codes) {
            ObjectNode r = responses.putObject(code);
            r.put("description", REASONS.get(code));
            ObjectNode content = r.putObject("content");
            media.forEach(m -> content.putObject(m).set("schema", Schemas.refOnly(schema)));
        }
        responses.putObject("401").put("description", REASONS.get("401"));
        return responses;
    }
}
