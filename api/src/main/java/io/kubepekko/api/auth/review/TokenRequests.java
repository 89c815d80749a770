package io.kubepekko.api.auth.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.TokenIssuer.BoundObjectRef;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.store.Timestamps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code serviceaccounts/{name}/token} subresource (TokenRequest) as kube-apiserver's {@code
 * TokenREST} serves it ({@code pkg/registry/core/serviceaccount/storage/token.go}): the spec
 * validated ({@code ValidateTokenRequest}) and defaulted, the bound object checked, and the answer:
 * the request echoed with the issued token in {@code status}.
 */
public final class TokenRequests {
    private TokenRequests() {}

    /** authentication.k8s.io/v1 TokenRequest, the subresource's body. */
    public static final GroupVersionKind GVK =
            new GroupVersionKind("authentication.k8s.io", "v1", "TokenRequest");

    /** kube's default lifetime: an hour ({@code SetDefaults_TokenRequestSpec}). */
    static final long DEFAULT_EXPIRATION_SECONDS = 3600;

    private static final long MIN_EXPIRATION_SECONDS = 10 * 60;
    private static final long MAX_EXPIRATION_SECONDS = 1L << 32;

    /**
     * kube's defaults of a decoded TokenRequest ({@code SetDefaults_TokenRequestSpec}): an hour's
     * lifetime. Decoding applies them, so they are in the object before anything else sees it.
     */
    public static void applyDefaults(ObjectNode body) {
        JsonNode spec = body.get("spec");
        ObjectNode s = spec instanceof ObjectNode o ? o : body.putObject("spec");
        if (!s.path("expirationSeconds").isNumber()) {
            s.put("expirationSeconds", DEFAULT_EXPIRATION_SECONDS);
        }
    }

    /**
     * The request the body makes, validated (422 as kube) and with kube's defaults: an hour's
     * lifetime and, without audiences, {@code defaultAudiences}.
     */
    public static TokenIssuer.Request parse(ObjectNode body, List<String> defaultAudiences) {
        JsonNode spec = body.path("spec");
        JsonNode expiration = spec.path("expirationSeconds");
        long seconds = expiration.isNumber() ? expiration.asLong() : DEFAULT_EXPIRATION_SECONDS;
        List<FieldError> errors = new ArrayList<>();
        if (seconds < MIN_EXPIRATION_SECONDS) {
            errors.add(
                    FieldError.invalid(
                            "spec.expirationSeconds",
                            seconds,
                            "may not specify a duration less than 10 minutes"));
        }
        if (seconds > MAX_EXPIRATION_SECONDS) {
            errors.add(
                    FieldError.invalid(
                            "spec.expirationSeconds",
                            seconds,
                            "may not specify a duration larger than 2^32 seconds"));
        }
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid(GVK.group(), GVK.kind(), "", errors).exception();
        }
        List<String> audiences = new ArrayList<>();
        spec.path("audiences").forEach(a -> audiences.add(a.asText("")));
        JsonNode ref = spec.path("boundObjectRef");
        Optional<BoundObjectRef> bound =
                ref.isObject()
                        ? Optional.of(
                                new BoundObjectRef(
                                        ref.path("apiVersion").asText(""),
                                        ref.path("kind").asText(""),
                                        ref.path("name").asText(""),
                                        ref.path("uid").asText("")))
                        : Optional.empty();
        return new TokenIssuer.Request(
                audiences.isEmpty() ? defaultAudiences : audiences, seconds, bound);
    }

    /**
     * A request as it is issued and the warning for its client, if any.
     *
     * @param request the request, its lifetime at most the maximum
     * @param warning kube's warning when the lifetime was cut
     */
    public record Shortened(TokenIssuer.Request request, Optional<String> warning) {}

    /**
     * kube's {@code --service-account-max-token-expiration} after the bound object's checks: a
     * longer lifetime is cut to the maximum (so the answer's {@code spec.expirationSeconds} and
     * {@code status.expirationTimestamp} show it) with a warning; zero means no maximum.
     */
    public static Shortened shorten(TokenIssuer.Request request, Duration max) {
        long maxSeconds = max.getSeconds();
        if (maxSeconds <= 0 || request.expirationSeconds() <= maxSeconds) {
            return new Shortened(request, Optional.empty());
        }
        return new Shortened(
                new TokenIssuer.Request(request.audiences(), maxSeconds, request.boundObjectRef()),
                Optional.of(
                        "requested expiration of "
                                + request.expirationSeconds()
                                + " seconds shortened to "
                                + maxSeconds
                                + " seconds"));
    }

    /**
     * Where the object a token is bound to is found: a Pod or Secret in the service account's
     * namespace, or a Node.
     *
     * @param resource the core/v1 resource holding it
     * @param namespaced whether it is looked up in the request's namespace
     */
    public record BoundTarget(String resource, boolean namespaced) {}

    /**
     * The resource a bound object reference names.
     *
     * @throws io.kubepekko.api.status.ApiException 400 {@code cannot bind token to object of type
     *     ...} for any kind but core Pod, Secret and Node
     */
    public static BoundTarget target(BoundObjectRef ref) {
        // schema.FromAPIVersionAndKind: a version without a slash is the core group's.
        String apiVersion = ref.apiVersion();
        int slash = apiVersion.indexOf('/');
        GroupVersionKind gvk =
                new GroupVersionKind(
                        slash < 0 ? "" : apiVersion.substring(0, slash),
                        slash < 0 ? apiVersion : apiVersion.substring(slash + 1),
                        ref.kind());
        if (gvk.group().isEmpty()) {
            switch (ref.kind()) {
                case "Pod" -> {
                    return new BoundTarget("pods", true);
                }
                case "Secret" -> {
                    return new BoundTarget("secrets", true);
                }
                case "Node" -> {
                    return new BoundTarget("nodes", false);
                }
                default -> {}
            }
        }
        throw ApiStatus.badRequest(
                        "cannot bind token to object of type "
                                + gvk.group()
                                + "/"
                                + gvk.version()
                                + ", Kind="
                                + gvk.kind())
                .exception();
    }

    /**
     * Checks the bound object found for {@code ref}: a pod must run as the service account, and a
     * uid in the reference must be the object's (409 otherwise, as kube).
     */
    public static void checkBound(String serviceAccount, BoundObjectRef ref, ObjectNode object) {
        if (ref.kind().equals("Pod")
                && !serviceAccount.equals(
                        object.path("spec").path("serviceAccountName").asText(""))) {
            throw ApiStatus.badRequest(
                            "cannot bind token for serviceaccount "
                                    + FieldError.quote(serviceAccount)
                                    + " to pod running with different serviceaccount name.")
                    .exception();
        }
        String uid = ObjectMeta.uid(object);
        if (!ref.uid().isEmpty() && !ref.uid().equals(uid)) {
            throw ApiStatus.conflict(
                            new GroupResource("", ref.kind()),
                            ref.name(),
                            "the UID in the bound object reference ("
                                    + ref.uid()
                                    + ") does not match the UID in record. The object might have"
                                    + " been deleted and then recreated")
                    .exception();
        }
    }

    /**
     * The answer: the request with its namespace, its spec as defaulted and the token in {@code
     * status}, as kube encodes a TokenRequest.
     */
    public static ObjectNode answer(
            ObjectNode body,
            String namespace,
            TokenIssuer.Request request,
            TokenIssuer.Issued issued) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode out = nodes.objectNode();
        out.put("kind", GVK.kind());
        out.put("apiVersion", GVK.apiVersion());
        // ObjectMeta's field order: what the body named, then the wiped creationTimestamp, then the
        // managed fields.
        ObjectNode metadata = nodes.objectNode();
        body.path("metadata")
                .properties()
                .forEach(
                        e -> {
                            if (!e.getKey().equals("managedFields")) {
                                metadata.set(e.getKey(), e.getValue());
                            }
                        });
        metadata.put("namespace", namespace);
        metadata.putNull("creationTimestamp");
        JsonNode managed = body.path("metadata").get("managedFields");
        if (managed != null) {
            metadata.set("managedFields", managed);
        }
        out.set("metadata", metadata);
        ObjectNode spec = out.putObject("spec");
        ArrayNode audiences = spec.putArray("audiences");
        request.audiences().forEach(audiences::add);
        spec.put("expirationSeconds", request.expirationSeconds());
        JsonNode ref = body.path("spec").path("boundObjectRef");
        spec.set("boundObjectRef", ref.isObject() ? ref : nodes.nullNode());
        ObjectNode status = out.putObject("status");
        status.put("token", issued.token());
        status.put("expirationTimestamp", Timestamps.format(issued.expiration()));
        return out;
    }
}
