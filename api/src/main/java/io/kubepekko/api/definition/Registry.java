package io.kubepekko.api.definition;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The served kinds, looked up by group/version/resource as URLs name them: the one place a request
 * finds its kind's {@link KindDefinition}, and with it the entry, strategy and printer. It takes
 * definitions, whoever made them: built-in kinds come from {@link BuiltinKinds}, and custom
 * resources will register through the same constructor.
 *
 * <p>A kind may be served in several versions. Each group-resource with objects has one storage
 * version (a definition without {@link KindDefinition#storedIn()}); every other served version of
 * it names where its objects are stored and how they convert ({@link ServedKind}). Collections,
 * watch caches and the controllers know only the storage versions ({@link #stored()}); requests
 * reach every served version ({@link #served}).
 *
 * <p>Which versions are served is kube 1.35's choice, as {@code --runtime-config} changes it
 * ({@link ApiEnablement}): a version off by default (a beta introduced since 1.24) or turned off
 * answers 404 and is absent from {@link #all()}, and so from discovery and OpenAPI, while its
 * objects stay stored and readable through the versions still served. A version whose lifecycle
 * ends before 1.35 is held ({@link #unavailable()}) and never served.
 */
public final class Registry {
    private final Map<String, KindDefinition> byGvr = new LinkedHashMap<>();
    private final Map<String, ServedKind> served = new LinkedHashMap<>();

    /** Every storage version by its group-resource. */
    private final Map<GroupResource, KindDefinition> byGroupResource = new LinkedHashMap<>();

    /** Every served version of each storage group-resource, by apiVersion, storage first. */
    private final Map<GroupResource, Map<String, ServedKind>> versions = new LinkedHashMap<>();

    private final List<ResourceType> types;

    /**
     * Every version this registry holds but never serves: removed by kube 1.35, or not yet in it.
     */
    private final List<KindDefinition> unavailable = new ArrayList<>();

    /**
     * The served versions turned on, by group/version/resource: decided once, so that a request's
     * lookup costs one map read.
     */
    private final Map<String, ServedKind> enabled = new LinkedHashMap<>();

    /**
     * A registry serving kube 1.35's default versions of {@code definitions}.
     *
     * @throws IllegalArgumentException for two definitions of one resource, two storage versions of
     *     one group-resource, a version stored in a group-resource without a storage version of the
     *     same kind and scope, or a resource that forwards its creates to a subresource no
     *     registered kind creates through
     */
    public Registry(List<KindDefinition> definitions) {
        this(definitions, RuntimeConfig.NONE);
    }

    /**
     * A registry serving the versions of {@code definitions} that kube 1.35 serves by default, as
     * {@code runtimeConfig} changes that. A definition whose lifecycle says it is no longer served
     * in 1.35 (or not yet) is held, never served.
     *
     * @throws ApiEnablement.InvalidException when {@code runtimeConfig} cannot be applied, in
     *     kube-apiserver's words
     * @throws IllegalArgumentException as {@link #Registry(List)}
     */
    public Registry(List<KindDefinition> definitions, RuntimeConfig runtimeConfig) {
        List<KindDefinition> available = new ArrayList<>();
        for (KindDefinition d : definitions) {
            if (d.lifecycle().unavailableIn(Release.EMULATED)) {
                unavailable.add(d);
            } else {
                available.add(d);
            }
        }
        for (KindDefinition d : available) {
            ResourceType t = d.type();
            String key = key(t.group(), t.version(), t.resource());
            if (byGvr.putIfAbsent(key, d) != null) {
                throw new IllegalArgumentException("duplicate registry entry " + key);
            }
            if (d.isStorageVersion() && byGroupResource.putIfAbsent(t.groupResource(), d) != null) {
                throw new IllegalArgumentException(t.groupResource() + " has two storage versions");
            }
        }
        for (KindDefinition d : available) {
            ResourceType t = d.type();
            ServedKind kind = servedKind(d);
            served.put(key(t.group(), t.version(), t.resource()), kind);
            versions.computeIfAbsent(
                            kind.storageType().groupResource(), gr -> new LinkedHashMap<>())
                    .put(t.apiVersion(), kind);
        }
        for (KindDefinition d : available) {
            checkForwardedCreate(d.type());
        }
        List<ApiEnablement.Known> known = new ArrayList<>();
        for (KindDefinition d : definitions) {
            known.add(
                    new ApiEnablement.Known(
                            new ApiEnablement.GroupVersion(d.type().group(), d.type().version()),
                            !unavailable.contains(d) && d.lifecycle().enabledByDefault()));
        }
        ApiEnablement on = ApiEnablement.resolve(runtimeConfig, known, SchemeVersions.KUBE_1_35);
        served.forEach(
                (key, kind) -> {
                    ResourceType t = kind.type();
                    if (on.enabled(t.group(), t.version(), t.resource())) {
                        enabled.put(key, kind);
                    }
                });
        this.types =
                byGvr.values().stream()
                        .map(KindDefinition::type)
                        .filter(t -> on.enabled(t.group(), t.version(), t.resource()))
                        .toList();
    }

    private ServedKind servedKind(KindDefinition d) {
        if (d.isStorageVersion()) {
            return ServedKind.storageVersion(d);
        }
        ResourceType t = d.type();
        KindDefinition storage = byGroupResource.get(d.storedIn().resource());
        if (storage == null
                || !storage.type().kind().equals(t.kind())
                || storage.type().namespaced() != t.namespaced()) {
            throw new IllegalArgumentException(
                    t.apiVersion()
                            + " "
                            + t.resource()
                            + " is stored as "
                            + d.storedIn().resource()
                            + ", which has no storage version of kind "
                            + t.kind()
                            + " and the same scope");
        }
        return new ServedKind(d, storage, d.storedIn().conversion());
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

    /** The registry of every built-in kind, serving the versions kube 1.35 serves by default. */
    public static Registry builtin() {
        return new Registry(BuiltinKinds.all());
    }

    /**
     * The registry of every built-in kind, serving the versions {@code runtimeConfig} leaves on.
     *
     * @throws ApiEnablement.InvalidException when {@code runtimeConfig} cannot be applied
     */
    public static Registry builtin(RuntimeConfig runtimeConfig) {
        return new Registry(BuiltinKinds.all(), runtimeConfig);
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

    /**
     * What a request to a URL's group, version and resource reaches: that version's definition, the
     * one its objects are stored under and the conversion between them. Empty for a version or
     * resource that is not served: unknown, turned off ({@code --runtime-config}, or off by default
     * in kube 1.35), or removed.
     */
    public Optional<ServedKind> served(String group, String version, String resource) {
        return Optional.ofNullable(enabled.get(key(group, version, resource)));
    }

    /**
     * The versions held but never served, because kube 1.35 no longer serves them (or does not
     * yet): their lifecycle says so.
     */
    public List<KindDefinition> unavailable() {
        return Collections.unmodifiableList(unavailable);
    }

    /**
     * Every version of the objects stored under {@code storage} (a storage version's
     * group-resource), by apiVersion, the storage version first; empty for anything else. Versions
     * turned off are among them: their managers' field ownership is converted all the same.
     */
    public Map<String, ServedKind> servedVersions(GroupResource storage) {
        Map<String, ServedKind> out = versions.get(storage);
        return out == null ? Map.of() : Collections.unmodifiableMap(out);
    }

    /**
     * The storage version of a group-resource with objects; empty for a group-resource served only
     * as a version stored elsewhere (events.k8s.io {@code events}) and for unknown ones.
     */
    public Optional<KindDefinition> definition(GroupResource gr) {
        return Optional.ofNullable(byGroupResource.get(gr));
    }

    public Optional<ResourceType> find(GroupResource gr) {
        return definition(gr).map(KindDefinition::type);
    }

    /**
     * The storage entry of {@code kind} served at exactly {@code apiVersion} (an owner reference's
     * coordinates), as a REST mapping resolves them: the entry its objects are read through, which
     * for a version stored as another is that other's. Subresource-only kinds have no entry of
     * their own, and kinds without stored objects (Binding) none that could be an owner.
     */
    public Optional<ResourceType> findKind(String apiVersion, String kind) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        for (ServedKind s : served.values()) {
            ResourceType t = s.type();
            if (t.stored()
                    && t.kind().equals(kind)
                    && t.group().equals(group)
                    && t.version().equals(version)) {
                return Optional.of(s.storageType());
            }
        }
        return Optional.empty();
    }

    /**
     * Every served resource (discovery's and OpenAPI's), those without objects of their own ({@link
     * ResourceType#stored()}) included; versions and resources turned off are not.
     */
    public List<ResourceType> all() {
        return types;
    }

    /** Every registered definition, in registration order. */
    public List<KindDefinition> definitions() {
        return List.copyOf(byGvr.values());
    }

    /**
     * The storage versions of the resources whose objects are stored, one per group-resource: each
     * has collections, a watch cache, namespace cleanup, informers. A version stored as another is
     * not among them.
     */
    public List<ResourceType> stored() {
        return byGroupResource.values().stream()
                .map(KindDefinition::type)
                .filter(ResourceType::stored)
                .toList();
    }

    /**
     * The kind of the storage version that holds the objects of {@code type} (a served version's
     * entry): discovery's storage version hash is made of it.
     */
    public GroupVersionKind storageKind(ResourceType type) {
        ServedKind kind = served.get(key(type.group(), type.version(), type.resource()));
        return kind == null ? type.gvk() : kind.storageType().gvk();
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
