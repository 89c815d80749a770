package io.kubepekko.api.discovery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * Trees of the legacy discovery types ({@code APIVersions}, {@code APIGroupList}, {@code
 * APIResourceList}), with kube-apiserver's field order and omissions.
 */
final class LegacyDocuments {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private LegacyDocuments() {}

    static ObjectNode apiVersions(List<String> coreVersions, String serverAddress) {
        ObjectNode root = F.objectNode().put("kind", "APIVersions");
        ArrayNode versions = root.putArray("versions");
        coreVersions.forEach(versions::add);
        root.putArray("serverAddressByClientCIDRs")
                .addObject()
                .put("clientCIDR", "0.0.0.0/0")
                .put("serverAddress", serverAddress);
        return root;
    }

    static ObjectNode groupList(Registry registry) {
        ObjectNode root = F.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = root.putArray("groups");
        for (String group : namedGroups(registry)) {
            List<String> versions = registry.versions(group);
            ObjectNode g = groups.addObject().put("name", group);
            ArrayNode vs = g.putArray("versions");
            versions.forEach(v -> vs.add(groupVersion(group, v)));
            g.set("preferredVersion", groupVersion(group, versions.get(0)));
        }
        return root;
    }

    static ObjectNode resourceList(Registry registry, String group, String version) {
        String gv = new GroupVersionKind(group, version, "").apiVersion();
        ObjectNode root =
                F.objectNode()
                        .put("kind", "APIResourceList")
                        .put("apiVersion", "v1")
                        .put("groupVersion", gv);
        ArrayNode resources = root.putArray("resources");
        for (ResourceType t : sortedResources(registry, group, version)) {
            resources.add(resource(t, registry.storageKind(t)));
            for (String sub : sortedSubresources(t)) {
                resources.add(subresource(t, SubresourceInfo.of(t, sub)));
            }
        }
        return root;
    }

    static List<String> namedGroups(Registry registry) {
        return registry.groups().stream().filter(g -> !g.isEmpty()).toList();
    }

    static List<ResourceType> sortedResources(Registry registry, String group, String version) {
        return registry.resources(group, version).stream()
                .sorted(Comparator.comparing(ResourceType::resource))
                .toList();
    }

    static List<String> sortedSubresources(ResourceType t) {
        return t.subresources().stream().sorted().toList();
    }

    /**
     * kube-apiserver's storage version hash: base64 of the first 8 bytes of SHA-256 over {@code
     * group/version/kind} (core group empty, so {@code /v1/Pod}). Clients use it only to notice
     * that a storage version changed, so every version of a kind stored in one version has that
     * version's hash (events.k8s.io/v1 events have core/v1 Event's).
     */
    static String storageVersionHash(GroupVersionKind gvk) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(
                                    (gvk.group() + "/" + gvk.version() + "/" + gvk.kind())
                                            .getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(Arrays.copyOf(digest, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }

    private static ObjectNode groupVersion(String group, String version) {
        return F.objectNode().put("groupVersion", group + "/" + version).put("version", version);
    }

    /**
     * @param storage the kind of the storage version that holds the objects
     */
    private static ObjectNode resource(ResourceType t, GroupVersionKind storage) {
        ObjectNode r =
                F.objectNode()
                        .put("name", t.resource())
                        .put("singularName", t.singular())
                        .put("namespaced", t.namespaced())
                        .put("kind", t.kind());
        strings(r, "verbs", t.verbs());
        if (!t.shortNames().isEmpty()) {
            strings(r, "shortNames", t.shortNames());
        }
        if (!t.categories().isEmpty()) {
            strings(r, "categories", t.categories());
        }
        if (t.stored()) {
            // Only a storage has a storage version: kube's bindings resource lists none.
            r.put("storageVersionHash", storageVersionHash(storage));
        }
        return r;
    }

    /** Group and version appear only when they differ from the list's own group version. */
    private static ObjectNode subresource(ResourceType owner, SubresourceInfo sub) {
        ObjectNode r =
                F.objectNode()
                        .put("name", owner.resource() + "/" + sub.name())
                        .put("singularName", "")
                        .put("namespaced", owner.namespaced());
        GroupVersionKind kind = sub.responseKind();
        if (!kind.group().equals(owner.group()) || !kind.version().equals(owner.version())) {
            r.put("group", kind.group()).put("version", kind.version());
        }
        r.put("kind", kind.kind());
        strings(r, "verbs", sub.verbs());
        return r;
    }

    static void strings(ObjectNode node, String field, List<String> values) {
        ArrayNode a = node.putArray(field);
        values.forEach(a::add);
    }
}
