package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code /openapi/v3} documents of a registry, built once and immutable: the root, which names
 * each group-version document by a URL carrying its content hash, and one document per served
 * group-version.
 *
 * <p>kubectl ({@code create -f}, {@code apply}, {@code replace}, {@code edit}) and helm fetch the
 * root, then the group-version documents of their input, and skip client-side schema validation for
 * a kind only when a path's {@code patch} operation carries that kind as {@code
 * x-kubernetes-group-version-kind} and a {@code fieldValidation} query parameter. Every patch
 * operation here does; the server then validates. Patch operations list no strategic-merge-patch
 * request body, so kubectl keeps using its compiled-in patch metadata rather than computing patches
 * from these schemas (see {@link GroupVersionDocument}); {@code kubectl explain} reads the schemas.
 *
 * <p>When the registry changes (custom resources), build a new instance.
 */
public final class OpenApiV3 {
    /** The version {@code info.version} reports, matching the Kubernetes API we implement. */
    public static final String DEFAULT_KUBERNETES_VERSION = "v1.35.0";

    /** The URL path of the root document; group-version documents live under it. */
    public static final String ROOT_PATH = "/openapi/v3";

    private final Map<String, Document> groupVersions;
    private final Document root;

    private OpenApiV3(Map<String, Document> groupVersions) {
        this.groupVersions = Collections.unmodifiableMap(groupVersions);
        ObjectNode rootJson = Json.MAPPER.createObjectNode();
        ObjectNode paths = rootJson.putObject("paths");
        groupVersions.forEach(
                (path, doc) ->
                        paths.putObject(path)
                                .put("serverRelativeURL", serverRelativeUrl(path, doc.hash())));
        this.root = Document.of(rootJson);
    }

    /**
     * The documents of {@code registry}: the built-in kinds with their full schemas ({@link
     * SchemaSource#models()}), any other kind with the minimal one.
     */
    public static OpenApiV3 of(Registry registry) {
        return of(registry, SchemaSource.models());
    }

    public static OpenApiV3 of(Registry registry, SchemaSource schemas) {
        return of(registry, schemas, DEFAULT_KUBERNETES_VERSION);
    }

    public static OpenApiV3 of(Registry registry, SchemaSource schemas, String kubernetesVersion) {
        Objects.requireNonNull(schemas, "schemas");
        Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
        // Sorted by path, as kube-apiserver's (Go map) output is, so the bytes do not depend on
        // registration order beyond what the registry lists per group-version.
        Map<String, Document> docs = new TreeMap<>();
        for (String group : registry.groups()) {
            for (String version : registry.versions(group)) {
                List<ResourceType> types = registry.resources(group, version);
                docs.put(
                        groupVersionPath(group, version),
                        Document.of(GroupVersionDocument.build(types, schemas, kubernetesVersion)));
            }
        }
        return new OpenApiV3(docs);
    }

    /** The root document served at {@link #ROOT_PATH}. */
    public Document root() {
        return root;
    }

    /**
     * The document of one group-version, addressed as under {@link #ROOT_PATH} without a leading
     * slash: {@code api/v1} or {@code apis/apps/v1}. Empty for anything else (the caller answers
     * 404).
     */
    public Optional<Document> groupVersion(String path) {
        return Optional.ofNullable(groupVersions.get(path));
    }

    /** The group-version paths the root lists, sorted. */
    public List<String> groupVersionPaths() {
        return new ArrayList<>(groupVersions.keySet());
    }

    /** {@code api/v1} for the core group, {@code apis/{group}/{version}} otherwise. */
    public static String groupVersionPath(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }

    /**
     * The URL the root gives for a group-version document with content {@code hash}. A request
     * whose {@code hash} no longer matches should be redirected here (kube-apiserver answers 301).
     */
    public static String serverRelativeUrl(String groupVersionPath, String hash) {
        return ROOT_PATH + "/" + groupVersionPath + "?hash=" + hash;
    }
}
