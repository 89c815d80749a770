package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.review.TokenRequests;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.SubresourceRoute;
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
        ResourceOperations ops = new ResourceOperations(gv, t);

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
                                    + ResourceOperations.where(t)
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
                                            + ResourceOperations.where(t)
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
            String path,
            ResourceType t,
            ResourceOperations ops,
            String rest,
            String name,
            GroupVersionKind of) {
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
}
