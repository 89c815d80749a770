package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.review.TokenRequests;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.SubresourceRoute;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the OpenAPI 3.0 document of one group-version from its registry entries: one path item per
 * URL kube-apiserver serves for a resource, its operations for the verbs the resource supports, and
 * the component schemas those operations refer to.
 *
 * <p>Patch operations deliberately list no {@code application/strategic-merge-patch+json} request
 * body. kubectl computes client-side apply and edit patches from these schemas when that media type
 * is listed; without it, kubectl uses the strategic-merge metadata compiled into it for built-in
 * kinds (and JSON merge patch for others), which is Kubernetes' own and stays right even where our
 * schemas lag behind a kubectl release, and custom kinds (minimal schemas) never get a strategic
 * merge patch they could not merge. The server still accepts strategic merge patches.
 */
final class GroupVersionDocument {
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
    private final SchemaSource source;
    private final Map<String, PathItem> paths = new TreeMap<>();
    private final Map<String, ObjectNode> schemas = new TreeMap<>();

    private GroupVersionDocument(GroupVersionKind gv, SchemaSource source) {
        this.gv = gv;
        this.source = source;
    }

    /** The document of the group-version the {@code types} (all of one group-version) belong to. */
    static ObjectNode build(
            List<ResourceType> types, SchemaSource source, String kubernetesVersion) {
        ResourceType first = types.get(0);
        GroupVersionDocument doc =
                new GroupVersionDocument(
                        new GroupVersionKind(first.group(), first.version(), ""), source);
        doc.schemas.putAll(
                MetaSchemas.forGroupVersion(
                        doc.gv, types.stream().anyMatch(ResourceType::hasScale)));
        types.forEach(doc::addResource);
        return doc.toJson(kubernetesVersion);
    }

    private void addResource(ResourceType t) {
        addKindSchemas(t);
        String namespaced = t.namespaced() ? "Namespaced" : "";
        String scope = t.namespaced() ? "/namespaces/{namespace}" : "";
        String prefix = t.gvk().pathPrefix();
        String collection = prefix + scope + "/" + t.resource();
        String item = collection + "/{name}";
        Ops ops = new Ops(t);

        PathItem c = path(collection, t, Shape.COLLECTION);
        if (t.supports("list")) {
            c.put(
                    "get",
                    ops.list(
                            "list",
                            namespaced + t.kind(),
                            "Lists the "
                                    + t.kind()
                                    + " objects"
                                    + where(t)
                                    + ", or watches them with watch=true."));
        }
        if (t.supports("create")) {
            c.put(
                    "post",
                    ops.write(
                            "create",
                            namespaced + t.kind(),
                            "Creates a " + t.kind() + ".",
                            "create",
                            t.gvk(),
                            SchemaNames.of(t.gvk()),
                            Parameters.CREATE,
                            "200",
                            "201",
                            "202"));
        }
        if (t.supports("deletecollection")) {
            c.put("delete", ops.deleteCollection(namespaced));
        }

        // A resource that is only created (bindings) has no item path at all.
        PathItem i =
                List.of("get", "update", "delete", "patch").stream().anyMatch(t::supports)
                        ? path(item, t, Shape.ITEM)
                        : null;
        if (t.supports("get")) {
            i.put(
                    "get",
                    ops.read(
                            namespaced + t.kind(),
                            "Reads the named " + t.kind() + ".",
                            t.gvk(),
                            SchemaNames.of(t.gvk())));
        }
        if (t.supports("update")) {
            i.put(
                    "put",
                    ops.write(
                            "replace",
                            namespaced + t.kind(),
                            "Replaces the named " + t.kind() + ".",
                            "update",
                            t.gvk(),
                            SchemaNames.of(t.gvk()),
                            Parameters.UPDATE,
                            "200",
                            "201"));
        }
        if (t.supports("delete")) {
            i.put("delete", ops.delete(namespaced));
        }
        if (t.supports("patch")) {
            i.put(
                    "patch",
                    ops.patch(
                            namespaced + t.kind(),
                            "Patches the named " + t.kind() + ".",
                            t.gvk(),
                            SchemaNames.of(t.gvk())));
        }

        if (t.namespaced() && t.supports("list")) {
            path(prefix + "/" + t.resource(), t, Shape.ALL_NAMESPACES)
                    .put(
                            "get",
                            ops.list(
                                    "list",
                                    t.kind() + "ForAllNamespaces",
                                    "Lists the "
                                            + t.kind()
                                            + " objects of all namespaces, or watches them with watch=true."));
        }
        if (t.supports("watch")) {
            String watchCollection = prefix + "/watch" + scope + "/" + t.resource();
            path(watchCollection, t, Shape.COLLECTION)
                    .put(
                            "get",
                            ops.list(
                                    "watchlist",
                                    namespaced + t.kind() + "List",
                                    "Watches the "
                                            + t.kind()
                                            + " objects"
                                            + where(t)
                                            + ". Deprecated: use list with watch=true."));
            path(watchCollection + "/{name}", t, Shape.ITEM)
                    .put(
                            "get",
                            ops.list(
                                    "watch",
                                    namespaced + t.kind(),
                                    "Watches the named "
                                            + t.kind()
                                            + ". Deprecated: use list with watch=true and a fieldSelector."));
            if (t.namespaced()) {
                path(prefix + "/watch/" + t.resource(), t, Shape.ALL_NAMESPACES)
                        .put(
                                "get",
                                ops.list(
                                        "watchlist",
                                        t.kind() + "ListForAllNamespaces",
                                        "Watches the "
                                                + t.kind()
                                                + " objects of all namespaces. Deprecated: use list with watch=true."));
            }
        }
        if (t.hasStatus()) {
            addSubresource(
                    item + "/status", t, ops, namespaced + t.kind() + "Status", "status", t.gvk());
        }
        if (t.hasScale()) {
            addSubresource(
                    item + "/scale",
                    t,
                    ops,
                    namespaced + t.kind() + "Scale",
                    "scale",
                    SchemaNames.SCALE_GVK);
        }
        for (String sub : t.subresources().stream().sorted().toList()) {
            GroupVersionKind of = createdBody(t, sub);
            if (of != null) {
                addObjectSchema(of);
                // kube names the operation after the subresource: ...ServiceAccountToken.
                String subName = Character.toUpperCase(sub.charAt(0)) + sub.substring(1);
                path(item + "/" + sub, t, Shape.ITEM)
                        .put(
                                "post",
                                ops.write(
                                        "create",
                                        namespaced + t.kind() + subName,
                                        "Creates a "
                                                + of.kind()
                                                + " of the named "
                                                + t.kind()
                                                + ".",
                                        "create",
                                        of,
                                        SchemaNames.of(of),
                                        Parameters.CREATE,
                                        "200",
                                        "201",
                                        "202"));
            }
        }
    }

    /**
     * The body kind of a subresource that is only created (pods/binding, serviceaccounts/token), or
     * null for any other.
     */
    private static GroupVersionKind createdBody(ResourceType t, String sub) {
        SubresourceRoute route = SubresourceRoute.of(t, sub).orElse(null);
        if (route instanceof SubresourceRoute.Creates c) {
            return c.creation().bodyKind();
        }
        if (route instanceof SubresourceRoute.Evicts) {
            return SubresourceRoute.Evicts.GVK;
        }
        return route instanceof SubresourceRoute.IssuesToken ? TokenRequests.GVK : null;
    }

    private void addSubresource(
            String path, ResourceType t, Ops ops, String rest, String name, GroupVersionKind of) {
        PathItem p = path(path, t, Shape.ITEM);
        String schema = SchemaNames.of(of);
        if (t.supports("get")) {
            p.put(
                    "get",
                    ops.read(
                            rest,
                            "Reads the " + name + " of the named " + t.kind() + ".",
                            of,
                            schema));
        }
        if (t.supports("update")) {
            p.put(
                    "put",
                    ops.write(
                            "replace",
                            rest,
                            "Replaces the " + name + " of the named " + t.kind() + ".",
                            "update",
                            of,
                            schema,
                            Parameters.UPDATE,
                            "200",
                            "201"));
        }
        if (t.supports("patch")) {
            p.put(
                    "patch",
                    ops.patch(
                            rest,
                            "Patches the " + name + " of the named " + t.kind() + ".",
                            of,
                            schema));
        }
    }

    private static String where(ResourceType t) {
        return t.namespaced() ? " of a namespace" : "";
    }

    /** Which path parameters a path item has. */
    private enum Shape {
        /** {@code namespace} for namespaced kinds. */
        COLLECTION,
        /** {@code name}, and {@code namespace} for namespaced kinds. */
        ITEM,
        /** None: the list and watch across all namespaces. */
        ALL_NAMESPACES
    }

    private PathItem path(String path, ResourceType t, Shape shape) {
        return paths.computeIfAbsent(
                path,
                p -> {
                    ArrayNode params = Json.MAPPER.createArrayNode();
                    if (shape == Shape.ITEM) {
                        params.add(Parameters.name(t.kind()));
                    }
                    if (shape != Shape.ALL_NAMESPACES && t.namespaced()) {
                        params.add(Parameters.namespace());
                    }
                    params.add(Parameters.query("pretty"));
                    return new PathItem(params);
                });
    }

    private void addKindSchemas(ResourceType t) {
        GroupVersionKind gvk = t.gvk();
        addObjectSchema(gvk);
        if (!t.supports("list")) {
            return; // a kind that is never listed (Binding) has no list type
        }
        GroupVersionKind listGvk = new GroupVersionKind(gvk.group(), gvk.version(), t.listKind());
        ObjectNode list = source.listSchema(gvk, t.listKind()).deepCopy();
        list.set(Schemas.GVK_EXTENSION, Schemas.gvkList(List.of(listGvk)));
        putSchema(SchemaNames.of(listGvk), list);
    }

    /** The schema of {@code gvk} and of the types it refers to. */
    private void addObjectSchema(GroupVersionKind gvk) {
        ObjectNode schema = source.schema(gvk).deepCopy();
        schema.putIfAbsent("description", Json.MAPPER.getNodeFactory().textNode(gvk.kind()));
        schema.putIfAbsent("type", Json.MAPPER.getNodeFactory().textNode("object"));
        schema.putIfAbsent("properties", Json.MAPPER.createObjectNode());
        schema.set(Schemas.GVK_EXTENSION, Schemas.gvkList(List.of(gvk)));
        putSchema(SchemaNames.of(gvk), schema);
        source.definitions(gvk)
                .forEach(
                        (name, s) -> {
                            // An Eviction refers to DeleteOptions, which the meta schemas already
                            // give with the group-versions that register it: theirs stands.
                            if (!name.equals(SchemaNames.DELETE_OPTIONS)
                                    || !schemas.containsKey(name)) {
                                putSchema(name, s.deepCopy());
                            }
                        });
    }

    private void putSchema(String name, ObjectNode schema) {
        JsonNode previous = schemas.putIfAbsent(name, schema);
        if (previous != null && !previous.equals(schema)) {
            throw new IllegalArgumentException(
                    "two different schemas named " + name + " in " + gv.apiVersion());
        }
    }

    private ObjectNode toJson(String kubernetesVersion) {
        ObjectNode doc = Json.MAPPER.createObjectNode();
        doc.put("openapi", "3.0.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", kubernetesVersion);
        ObjectNode p = doc.putObject("paths");
        paths.forEach((path, item) -> p.set(path, item.toJson()));
        ObjectNode s = doc.putObject("components").putObject("schemas");
        schemas.forEach(s::set);
        return doc;
    }

    /** The operations of one path, in OpenAPI's field order, then the parameters they share. */
    private static final class PathItem {
        private static final List<String> METHODS =
                List.of("get", "put", "post", "delete", "patch");
        private final Map<String, ObjectNode> operations = new LinkedHashMap<>();
        private final ArrayNode parameters;

        PathItem(ArrayNode parameters) {
            this.parameters = parameters;
        }

        void put(String method, ObjectNode operation) {
            operations.put(method, operation);
        }

        ObjectNode toJson() {
            ObjectNode item = Json.MAPPER.createObjectNode();
            METHODS.forEach(
                    m -> {
                        if (operations.containsKey(m)) {
                            item.set(m, operations.get(m));
                        }
                    });
            item.set("parameters", parameters);
            return item;
        }
    }

    /** The operations of one resource type. */
    private final class Ops {
        private final ResourceType t;

        Ops(ResourceType t) {
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
