package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;

/** Checks a body's {@code apiVersion} and {@code kind} against what the URL serves. */
public final class TypeMeta {
    private TypeMeta() {}

    /**
     * Fills absent {@code apiVersion}/{@code kind} from the request (as kube-apiserver's decoder
     * defaults them) and refuses a body of another type with 400.
     */
    public static void check(String apiVersion, String kind, ObjectNode body) {
        String bodyKind = body.path("kind").asText("");
        String bodyVersion = body.path("apiVersion").asText("");
        if (!bodyKind.isEmpty() && !bodyKind.equals(kind)) {
            String v = bodyVersion.isEmpty() ? apiVersion : bodyVersion;
            throw ApiStatus.badRequest(bodyKind + " in version \"" + version(v) + "\" cannot be handled as a " + kind
                    + ": the kind in the body (" + bodyKind + ") does not match the kind of the URL (" + kind + ")")
                    .exception();
        }
        if (!bodyVersion.isEmpty() && !bodyVersion.equals(apiVersion)) {
            throw ApiStatus.badRequest("the API version in the data (" + bodyVersion
                    + ") does not match the expected API version (" + apiVersion + ")").exception();
        }
        body.put("apiVersion", apiVersion);
        body.put("kind", kind);
    }

    private static String version(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    }
}
