package io.kubepekko.api.discovery;

import io.kubepekko.api.definition.Registry;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The discovery documents of one {@link Registry}: {@code /api}, {@code /apis} (legacy and
 * aggregated v2/v2beta1) and each group version's {@code APIResourceList}. A registry never
 * changes, so every document is rendered, serialized and tagged once, when the registry is first
 * seen; requests then only pick a ready document. Pure: no I/O, no clock.
 *
 * <p>The HTTP layer chooses the representation with {@link DiscoveryFormat#negotiate(String)},
 * serves {@link DiscoveryDocument#bytes()} with {@link DiscoveryDocument#contentType()} and {@link
 * DiscoveryDocument#etag()}, answers 304 when {@link DiscoveryDocument#matches(String)} holds for
 * If-None-Match, and should send {@code Vary: Accept} on {@code /api} and {@code /apis}.
 */
public final class Discovery {
    /**
     * Keyed by registry identity and weakly, so registries replaced later (custom resources) are
     * released; a Discovery keeps no reference to its registry, which would pin the key.
     */
    private static final Map<Registry, Discovery> BY_REGISTRY =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final List<String> coreVersions;
    private final DiscoveryDocument legacyGroups;
    private final Map<String, DiscoveryDocument> resourceLists = new LinkedHashMap<>();
    private final Map<DiscoveryFormat, DiscoveryDocument> aggregatedApi =
            new EnumMap<>(DiscoveryFormat.class);
    private final Map<DiscoveryFormat, DiscoveryDocument> aggregatedApis =
            new EnumMap<>(DiscoveryFormat.class);

    private Discovery(Registry registry) {
        this.coreVersions = List.copyOf(registry.versions(""));
        String json = DiscoveryFormat.LEGACY.contentType();
        this.legacyGroups = DiscoveryDocument.of(LegacyDocuments.groupList(registry), json);
        for (String group : registry.groups()) {
            for (String version : registry.versions(group)) {
                resourceLists.put(
                        key(group, version),
                        DiscoveryDocument.of(
                                LegacyDocuments.resourceList(registry, group, version), json));
            }
        }
        List<String> core = registry.groups().contains("") ? List.of("") : List.of();
        List<String> named = LegacyDocuments.namedGroups(registry);
        for (DiscoveryFormat f : DiscoveryFormat.values()) {
            f.apiVersion()
                    .ifPresent(
                            apiVersion -> {
                                aggregatedApi.put(
                                        f,
                                        DiscoveryDocument.of(
                                                AggregatedDocuments.list(
                                                        registry, core, apiVersion),
                                                f.contentType()));
                                aggregatedApis.put(
                                        f,
                                        DiscoveryDocument.of(
                                                AggregatedDocuments.list(
                                                        registry, named, apiVersion),
                                                f.contentType()));
                            });
        }
    }

    /** The documents of {@code registry}, rendered on first use and shared afterwards. */
    public static Discovery of(Registry registry) {
        Objects.requireNonNull(registry, "registry");
        return BY_REGISTRY.computeIfAbsent(registry, Discovery::new);
    }

    /**
     * {@code /api} as {@code APIVersions}. The address (host:port clients should use) comes from
     * the request, so this one document is rendered per call; it is small.
     */
    public DiscoveryDocument legacyApi(String serverAddress) {
        Objects.requireNonNull(serverAddress, "serverAddress");
        return DiscoveryDocument.of(
                LegacyDocuments.apiVersions(coreVersions, serverAddress),
                DiscoveryFormat.LEGACY.contentType());
    }

    /** {@code /apis} as {@code APIGroupList}: named groups, versions preferred first. */
    public DiscoveryDocument legacyGroups() {
        return legacyGroups;
    }

    /**
     * {@code /api/v1} ({@code group} empty) or {@code /apis/{group}/{version}} as {@code
     * APIResourceList}.
     *
     * @return empty for a group version the registry does not serve (answer 404)
     */
    public Optional<DiscoveryDocument> resourceList(String group, String version) {
        return Optional.ofNullable(resourceLists.get(key(group == null ? "" : group, version)));
    }

    /**
     * {@code /api} as aggregated discovery: one item, the core group ({@code metadata.name ""}).
     */
    public DiscoveryDocument aggregatedApi(DiscoveryFormat format) {
        return aggregated(aggregatedApi, format);
    }

    /** {@code /apis} as aggregated discovery: every named group. */
    public DiscoveryDocument aggregatedApis(DiscoveryFormat format) {
        return aggregated(aggregatedApis, format);
    }

    /**
     * {@link #aggregatedApi(DiscoveryFormat)} by {@code apidiscovery.k8s.io} version: {@code v2} or
     * {@code v2beta1}.
     */
    public DiscoveryDocument aggregatedApi(String apidiscoveryVersion) {
        return aggregatedApi(aggregatedFormat(apidiscoveryVersion));
    }

    /** {@link #aggregatedApis(DiscoveryFormat)} by {@code apidiscovery.k8s.io} version. */
    public DiscoveryDocument aggregatedApis(String apidiscoveryVersion) {
        return aggregatedApis(aggregatedFormat(apidiscoveryVersion));
    }

    /** {@code /api} in a negotiated format. */
    public DiscoveryDocument api(DiscoveryFormat format, String serverAddress) {
        return format.aggregated() ? aggregatedApi(format) : legacyApi(serverAddress);
    }

    /** {@code /apis} in a negotiated format. */
    public DiscoveryDocument apis(DiscoveryFormat format) {
        return format.aggregated() ? aggregatedApis(format) : legacyGroups;
    }

    private static DiscoveryDocument aggregated(
            Map<DiscoveryFormat, DiscoveryDocument> docs, DiscoveryFormat format) {
        DiscoveryDocument doc = docs.get(format);
        if (doc == null) {
            throw new IllegalArgumentException(format + " is not an aggregated discovery format");
        }
        return doc;
    }

    private static DiscoveryFormat aggregatedFormat(String version) {
        return DiscoveryFormat.ofVersion(version)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "no aggregated discovery version " + version));
    }

    private static String key(String group, String version) {
        return group + "/" + version;
    }
}
