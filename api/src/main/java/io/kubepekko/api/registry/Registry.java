package io.kubepekko.api.registry;

import io.kubepekko.api.GroupResource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The set of served resource types, looked up by group/version/resource as URLs name them. Built-in
 * kinds come from {@link BuiltinKinds}; custom resources will register here later.
 */
public final class Registry {
    private final Map<String, ResourceType> byGvr = new LinkedHashMap<>();
    private final Map<GroupResource, ResourceType> byGroupResource = new LinkedHashMap<>();

    public Registry(List<ResourceType> types) {
        for (ResourceType t : types) {
            String key = key(t.group(), t.version(), t.resource());
            if (byGvr.putIfAbsent(key, t) != null) {
                throw new IllegalArgumentException("duplicate registry entry " + key);
            }
            byGroupResource.putIfAbsent(t.groupResource(), t);
        }
    }

    /** The registry of every built-in kind. */
    public static Registry builtin() {
        return new Registry(BuiltinKinds.all());
    }

    private static String key(String group, String version, String resource) {
        return group + "/" + version + "/" + resource;
    }

    public Optional<ResourceType> find(String group, String version, String resource) {
        return Optional.ofNullable(byGvr.get(key(group, version, resource)));
    }

    public Optional<ResourceType> find(GroupResource gr) {
        return Optional.ofNullable(byGroupResource.get(gr));
    }

    /**
     * The entry serving {@code kind} at exactly {@code apiVersion} (an owner reference's coordinates),
     * as a REST mapping resolves them; subresource-only kinds have no entry of their own, and kinds
     * without stored objects (Binding) none that could be an owner.
     */
    public Optional<ResourceType> findKind(String apiVersion, String kind) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        for (ResourceType t : byGvr.values()) {
            if (t.stored() && t.kind().equals(kind) && t.group().equals(group) && t.version().equals(version)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** Every served resource, those without objects of their own ({@link ResourceType#stored()}) included. */
    public List<ResourceType> all() {
        return Collections.unmodifiableList(new ArrayList<>(byGvr.values()));
    }

    /** The resources whose objects are stored: each has collections, a watch cache, namespace cleanup. */
    public List<ResourceType> stored() {
        return byGvr.values().stream().filter(ResourceType::stored).toList();
    }

    /** Group names in the order discovery lists them (core group, "", first). */
    public List<String> groups() {
        List<String> out = new ArrayList<>();
        for (ResourceType t : byGvr.values()) {
            if (!out.contains(t.group())) {
                out.add(t.group());
            }
        }
        return out;
    }

    /** Versions of a group, preferred first. */
    public List<String> versions(String group) {
        List<String> out = new ArrayList<>();
        for (ResourceType t : byGvr.values()) {
            if (t.group().equals(group) && !out.contains(t.version())) {
                out.add(t.version());
            }
        }
        return out;
    }

    public List<ResourceType> resources(String group, String version) {
        return byGvr.values().stream().filter(t -> t.group().equals(group) && t.version().equals(version)).toList();
    }
}
