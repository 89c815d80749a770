package io.kubepekko.api.definition;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The served kinds, looked up by group/version/resource as URLs name them: the one place a request
 * finds its kind's {@link KindDefinition}, and with it the entry, strategy and printer. It takes
 * definitions, whoever made them: built-in kinds come from {@link BuiltinKinds}, and custom
 * resources will register through the same constructor.
 */
public final class Registry {
    private final Map<String, KindDefinition> byGvr = new LinkedHashMap<>();
    private final Map<GroupResource, KindDefinition> byGroupResource = new LinkedHashMap<>();
    private final List<ResourceType> types;

    /**
     * @throws IllegalArgumentException for two definitions of one resource, or a resource that
     *     forwards its creates to a subresource no registered kind creates through
     */
    public Registry(List<KindDefinition> definitions) {
        for (KindDefinition d : definitions) {
            ResourceType t = d.type();
            String key = key(t.group(), t.version(), t.resource());
            if (byGvr.putIfAbsent(key, d) != null) {
                throw new IllegalArgumentException("duplicate registry entry " + key);
            }
            byGroupResource.putIfAbsent(t.groupResource(), d);
        }
        for (KindDefinition d : definitions) {
            checkForwardedCreate(d.type());
        }
        this.types = byGvr.values().stream().map(KindDefinition::type).toList();
    }

    private void checkForwardedCreate(ResourceType t) {
        ForwardedCreate forwarded = t.forwardedCreate();
        if (forwarded == null) {
            return;
        }
        KindDefinition target = byGvr.get(key(t.group(), t.version(), forwarded.resource()));
        if (target == null
                || !target.subresources().contains(forwarded.subresource())
                || target.strategy().subresourceCreate(forwarded.subresource()) == null) {
            throw new IllegalArgumentException(
                    t.resource()
                            + "."
                            + t.group()
                            + " forwards its creates to "
                            + forwarded.resource()
                            + "/"
                            + forwarded.subresource()
                            + ", which takes none");
        }
    }

    /** The registry of every built-in kind. */
    public static Registry builtin() {
        return new Registry(BuiltinKinds.all());
    }

    private static String key(String group, String version, String resource) {
        return group + "/" + version + "/" + resource;
    }

    /** The kind a URL's group, version and resource name, with all its parts. */
    public Optional<KindDefinition> definition(String group, String version, String resource) {
        return Optional.ofNullable(byGvr.get(key(group, version, resource)));
    }

    public Optional<ResourceType> find(String group, String version, String resource) {
        return definition(group, version, resource).map(KindDefinition::type);
    }

    /** The kind serving a group's resource (at its preferred version, the first registered). */
    public Optional<KindDefinition> definition(GroupResource gr) {
        return Optional.ofNullable(byGroupResource.get(gr));
    }

    public Optional<ResourceType> find(GroupResource gr) {
        return definition(gr).map(KindDefinition::type);
    }

    /**
     * The entry serving {@code kind} at exactly {@code apiVersion} (an owner reference's
     * coordinates), as a REST mapping resolves them; subresource-only kinds have no entry of their
     * own, and kinds without stored objects (Binding) none that could be an owner.
     */
    public Optional<ResourceType> findKind(String apiVersion, String kind) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        for (ResourceType t : types) {
            if (t.stored()
                    && t.kind().equals(kind)
                    && t.group().equals(group)
                    && t.version().equals(version)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * Every served resource, those without objects of their own ({@link ResourceType#stored()})
     * included.
     */
    public List<ResourceType> all() {
        return types;
    }

    /** Every registered definition, in registration order. */
    public List<KindDefinition> definitions() {
        return List.copyOf(byGvr.values());
    }

    /**
     * The resources whose objects are stored: each has collections, a watch cache, namespace
     * cleanup.
     */
    public List<ResourceType> stored() {
        return types.stream().filter(ResourceType::stored).toList();
    }

    /** Group names in the order discovery lists them (core group, "", first). */
    public List<String> groups() {
        List<String> out = new ArrayList<>();
        for (ResourceType t : types) {
            if (!out.contains(t.group())) {
                out.add(t.group());
            }
        }
        return out;
    }

    /** Versions of a group, preferred first. */
    public List<String> versions(String group) {
        List<String> out = new ArrayList<>();
        for (ResourceType t : types) {
            if (t.group().equals(group) && !out.contains(t.version())) {
                out.add(t.version());
            }
        }
        return out;
    }

    public List<ResourceType> resources(String group, String version) {
        return types.stream()
                .filter(t -> t.group().equals(group) && t.version().equals(version))
                .toList();
    }
}
