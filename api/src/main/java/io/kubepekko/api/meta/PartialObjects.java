package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;

/**
 * Objects and lists as {@code meta.k8s.io} {@code PartialObjectMetadata} and {@code
 * PartialObjectMetadataList}: their metadata only, as kube-apiserver answers a client that accepts
 * {@code as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1|v1beta1} (metadata informers, the
 * garbage collector, {@code kubectl get -o name}).
 */
public final class PartialObjects {
    private PartialObjects() {}

    public static final String GROUP = "meta.k8s.io";
    public static final String KIND = "PartialObjectMetadata";
    public static final String LIST_KIND = "PartialObjectMetadataList";

    /**
     * Whether {@code meta.k8s.io/{version}} has the partial kinds ({@code v1} and {@code v1beta1}).
     */
    public static boolean served(String version) {
        return "v1".equals(version) || "v1beta1".equals(version);
    }

    /** The {@code apiVersion} of the partial kinds in {@code metaVersion}. */
    public static String apiVersion(String metaVersion) {
        return GROUP + "/" + metaVersion;
    }

    /** An object's metadata as a {@code PartialObjectMetadata} of {@code metaVersion}. */
    public static ObjectNode of(String metaVersion, JsonNode object) {
        ObjectNode partial =
                Json.MAPPER
                        .createObjectNode()
                        .put("kind", KIND)
                        .put("apiVersion", apiVersion(metaVersion));
        JsonNode metadata = object.path("metadata");
        partial.set(
                "metadata",
                metadata.isObject() ? metadata.deepCopy() : Json.MAPPER.createObjectNode());
        return partial;
    }

    /** {@link #of(String, JsonNode)} of stored JSON bytes, as JSON bytes. */
    public static byte[] of(String metaVersion, byte[] object) {
        return Json.bytes(of(metaVersion, Json.parseTrusted(object)));
    }

    /**
     * kube-apiserver's 406 when the partial kind does not fit the answer: a single
     * PartialObjectMetadata for a list, or a list for a single object. {@code goType} is the Go
     * type kube-apiserver names ({@link #goType}).
     */
    public static ApiStatus mismatch(boolean askedForList, String goType) {
        return ApiStatus.notAcceptable(
                askedForList
                        ? "you requested "
                                + LIST_KIND
                                + ", but the requested object is not a list ("
                                + goType
                                + ")"
                        : "you requested "
                                + KIND
                                + ", but the requested object is a list ("
                                + goType
                                + ")");
    }

    /**
     * The Go type kube-apiserver prints ({@code %T}) for an object or list: built-in types live in
     * a package named after their version ({@code *v1.ConfigMap}, {@code *v1.DeploymentList});
     * custom resources are unstructured.
     *
     * @param typeName the kind, or the list kind for a list
     */
    public static String goType(boolean builtin, String version, String typeName, boolean list) {
        if (!builtin) {
            return list ? "*unstructured.UnstructuredList" : "*unstructured.Unstructured";
        }
        return "*" + version + "." + typeName;
    }
}
