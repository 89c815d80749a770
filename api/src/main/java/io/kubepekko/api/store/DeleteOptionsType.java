package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The type a delete's body may declare, as kube-apiserver decodes it with its meta scheme ({@code
 * k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme}): an absent kind is {@code
 * DeleteOptions}, an absent apiVersion {@code meta.k8s.io/v1}, and {@code DeleteOptions} is
 * accepted in every group and version (it is registered as unversioned, so per-group DeleteOptions
 * of old clients still decode). Any other kind is a 400 with the decoder's message: another type
 * the scheme knows cannot be converted, and a type it does not know is not registered.
 */
public final class DeleteOptionsType {
    private DeleteOptionsType() {}

    /** How kube-apiserver names its meta scheme in decoding errors (where it is created). */
    static final String SCHEME = "pkg/apis/meta/internalversion/scheme/register.go:27";

    private static final String META = "meta.k8s.io";

    /** Go types of the kinds the scheme registers per group/version ("group/version/Kind"). */
    private static final Map<String, String> REGISTERED = registered();

    /**
     * Go types of the kinds registered as unversioned: found by kind in every group and version.
     */
    private static final Map<String, String> UNVERSIONED =
            Map.of(
                    "Status",
                    "v1.Status",
                    "APIVersions",
                    "v1.APIVersions",
                    "APIGroupList",
                    "v1.APIGroupList",
                    "APIGroup",
                    "v1.APIGroup",
                    "APIResourceList",
                    "v1.APIResourceList",
                    "CreateOptions",
                    "v1.CreateOptions",
                    "UpdateOptions",
                    "v1.UpdateOptions");

    private static Map<String, String> registered() {
        Map<String, String> m = new HashMap<>();
        for (String kind :
                new String[] {
                    "ListOptions",
                    "GetOptions",
                    "CreateOptions",
                    "UpdateOptions",
                    "PatchOptions",
                    "WatchEvent",
                    "Table",
                    "TableOptions",
                    "PartialObjectMetadata",
                    "PartialObjectMetadataList"
                }) {
            m.put(META + "/v1/" + kind, "v1." + kind);
        }
        for (String kind : new String[] {"Table", "TableOptions", "PartialObjectMetadata"}) {
            m.put(META + "/v1beta1/" + kind, "v1." + kind);
            m.put(META + "/__internal/" + kind, "v1." + kind);
        }
        m.put(META + "/v1beta1/PartialObjectMetadataList", "v1beta1.PartialObjectMetadataList");
        m.put(META + "/__internal/PartialObjectMetadataList", "v1beta1.PartialObjectMetadataList");
        m.put(META + "/__internal/ListOptions", "internalversion.ListOptions");
        m.put(META + "/__internal/WatchEvent", "v1.InternalEvent");
        for (String kind : new String[] {"GetOptions", "CreateOptions", "UpdateOptions"}) {
            m.put(META + "/__internal/" + kind, "v1." + kind);
        }
        return Map.copyOf(m);
    }

    /**
     * Refuses a body whose {@code apiVersion}/{@code kind} does not decode as DeleteOptions.
     *
     * @param raw the body as sent (kube-apiserver quotes it when the version is missing)
     */
    public static void check(JsonNode body, byte[] raw) {
        String kind = body.path("kind").asText("");
        String apiVersion = body.path("apiVersion").asText("");
        if (kind.isEmpty()) {
            kind = "DeleteOptions";
        }
        String group;
        String version;
        int slashes = apiVersion.length() - apiVersion.replace("/", "").length();
        if (apiVersion.isEmpty() || apiVersion.equals("/")) {
            group = "";
            version = "";
        } else if (slashes == 0) {
            group = "";
            version = apiVersion;
        } else if (slashes == 1) {
            group = apiVersion.substring(0, apiVersion.indexOf('/'));
            version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        } else {
            throw ApiStatus.badRequest("unexpected GroupVersion string: " + apiVersion).exception();
        }
        if (version.isEmpty() && (group.isEmpty() || group.equals(META))) {
            group = META;
            version = "v1";
        }
        if (version.isEmpty()) {
            throw ApiStatus.badRequest(
                            "Object 'apiVersion' is missing in '"
                                    + new String(raw, StandardCharsets.UTF_8)
                                    + "'")
                    .exception();
        }
        if (kind.equals("DeleteOptions")) {
            return;
        }
        String goType =
                REGISTERED.getOrDefault(group + "/" + version + "/" + kind, UNVERSIONED.get(kind));
        if (goType != null) {
            throw ApiStatus.badRequest(
                            "converting (" + goType + ") to (v1.DeleteOptions): unknown conversion")
                    .exception();
        }
        if (version.equals("__internal")) {
            throw ApiStatus.badRequest(
                            "no kind "
                                    + FieldError.quote(kind)
                                    + " is registered for the internal version of "
                                    + "group "
                                    + FieldError.quote(group)
                                    + " in scheme "
                                    + FieldError.quote(SCHEME))
                    .exception();
        }
        String groupVersion = group.isEmpty() ? version : group + "/" + version;
        throw ApiStatus.badRequest(
                        "no kind "
                                + FieldError.quote(kind)
                                + " is registered for version "
                                + FieldError.quote(groupVersion)
                                + " in scheme "
                                + FieldError.quote(SCHEME))
                .exception();
    }
}
