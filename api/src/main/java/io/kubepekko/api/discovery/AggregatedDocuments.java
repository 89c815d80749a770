package io.kubepekko.api.discovery;

import static io.kubepekko.api.discovery.LegacyDocuments.sortedResources;
import static io.kubepekko.api.discovery.LegacyDocuments.sortedSubresources;
import static io.kubepekko.api.discovery.LegacyDocuments.strings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;

/**
 * Trees of {@code APIGroupDiscoveryList} ({@code apidiscovery.k8s.io/v2} and {@code v2beta1}, which
 * share one shape), with the field names and order of Kubernetes' Go types.
 */
final class AggregatedDocuments {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AggregatedDocuments() {}

    /** The list for {@code groups}, each rendered with all its versions, preferred first. */
    static ObjectNode list(Registry registry, List<String> groups, String apiVersion) {
        ObjectNode root =
                F.objectNode().put("kind", DiscoveryFormat.LIST_KIND).put("apiVersion", apiVersion);
        root.putObject("metadata");
        ArrayNode items = root.putArray("items");
        for (String group : groups) {
            ObjectNode item = items.addObject();
            item.putObject("metadata").put("name", group);
            ArrayNode versions = item.putArray("versions");
            for (String version : registry.versions(group)) {
                ObjectNode v = versions.addObject().put("version", version);
                ArrayNode resources = v.putArray("resources");
                sortedResources(registry, group, version).forEach(t -> resources.add(resource(t)));
                // "Stale" would make clients treat the version as failed; we serve everything we
                // list.
                v.put("freshness", "Current");
            }
        }
        return root;
    }

    private static ObjectNode resource(ResourceType t) {
        ObjectNode r = F.objectNode().put("resource", t.resource());
        r.set("responseKind", kind(t.gvk()));
        r.put("scope", t.namespaced() ? "Namespaced" : "Cluster")
                .put("singularResource", t.singular());
        strings(r, "verbs", t.verbs());
        if (!t.shortNames().isEmpty()) {
            strings(r, "shortNames", t.shortNames());
        }
        if (!t.categories().isEmpty()) {
            strings(r, "categories", t.categories());
        }
        List<String> subs = sortedSubresources(t);
        if (!subs.isEmpty()) {
            ArrayNode a = r.putArray("subresources");
            for (String name : subs) {
                SubresourceInfo sub = SubresourceInfo.of(t, name);
                ObjectNode s = a.addObject().put("subresource", sub.name());
                s.set("responseKind", kind(sub.responseKind()));
                strings(s, "verbs", sub.verbs());
            }
        }
        return r;
    }

    private static ObjectNode kind(GroupVersionKind gvk) {
        return F.objectNode()
                .put("group", gvk.group())
                .put("version", gvk.version())
                .put("kind", gvk.kind());
    }
}
