package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.store.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code serviceaccounts/<name>/token} subresource (an {@code authentication.k8s.io/v1}
 * TokenRequest) as kube's {@code TokenREST.Create}, split where the caller must look objects up so
 * each step stays pure and the checks come in kube's order:
 *
 * <ol>
 *   <li>{@link #read}: the body's own name and namespace must match the URL's (422);
 *   <li>the caller fetches the service account (404 when missing);
 *   <li>{@link #validate}: audiences default to the API server's, {@code expirationSeconds}
 *       (default 3600) is at least 600 and at most 2^32 (422), a bound object is a core Pod, Secret
 *       or Node with a name (400);
 *   <li>the caller fetches the bound object (404 when missing) and, for a scheduled pod, its node
 *       (a missing node is no error: the token then names it without uid);
 *   <li>{@link #issue}: a pod must run as this service account (400), the bound object's uid must
 *       match the reference's (409), the expiration is cut to {@code
 *       --service-account-max-token-expiration} with a warning, kube's extended pod-bound token
 *       applies, and the token is signed into the response's {@code status}.
 * </ol>
 */
public final class TokenRequests {
    private TokenRequests() {}

    public static final String GROUP = "authentication.k8s.io";
    public static final String KIND = "TokenRequest";

    /** kube's default {@code spec.expirationSeconds} (v1 defaulting). */
    public static final long DEFAULT_EXPIRATION_SECONDS = 3600;

    /** The shortest lifetime kube issues. */
    public static final long MIN_EXPIRATION_SECONDS = 600;

    /** The longest lifetime kube's validation allows. */
    public static final long MAX_EXPIRATION_SECONDS = 1L << 32;

    /** The expiration that makes kube issue an extended pod-bound token (one hour + 7 s). */
    public static final long WARN_ONLY_EXPIRATION_SECONDS = 60 * 60 + 7;

    /** The lifetime of kube's extended pod-bound tokens: one year. */
    public static final Duration EXTENDED_EXPIRATION = Duration.ofSeconds(24L * 365 * 60 * 60);

    /**
     * The server's settings for issuing tokens.
     *
     * @param apiAudiences the API server's audiences, the default of {@code spec.audiences}
     * @param maxExpiration {@code --service-account-max-token-expiration}; zero (kube's default)
     *     means no limit beyond 2^32 seconds
     * @param extendExpiration {@code --service-account-extend-token-expiration} (kube: true)
     */
    public record Settings(
            List<String> apiAudiences, Duration maxExpiration, boolean extendExpiration) {
        public Settings {
            apiAudiences = List.copyOf(apiAudiences);
        }
    }

    /** A step's answer: a value to go on with or kube's error. */
    public sealed interface Step<T> {}

    /**
     * @param value what the next step takes
     */
    public record Ok<T>(T value) implements Step<T> {}

    /**
     * @param status the response
     */
    public record Refused<T>(ApiStatus status) implements Step<T> {}

    /**
     * The bound object a request names.
     *
     * @param kind Pod, Secret or Node
     * @param name its name
     * @param uid the uid the client expects, empty for any
     */
    public record BoundRef(String kind, String name, String uid) {}

    /**
     * A TokenRequest read from its body.
     *
     * @param namespace the service account's namespace (from the URL)
     * @param name the service account's name (from the URL)
     * @param body the request body
     * @param audiences {@code spec.audiences} (empty: not given)
     * @param expirationSeconds {@code spec.expirationSeconds}, defaulted
     * @param boundObjectRef {@code spec.boundObjectRef} as sent
     */
    public record Request(
            String namespace,
            String name,
            ObjectNode body,
            List<String> audiences,
            long expirationSeconds,
            Optional<JsonNode> boundObjectRef) {}

    /**
     * A request that passed validation.
     *
     * @param request the request with its audiences defaulted
     * @param bound what the token is to be bound to
     */
    public record Validated(Request request, Optional<BoundRef> bound) {}

    /**
     * The answer.
     *
     * @param response the TokenRequest with {@code status.token} and {@code
     *     status.expirationTimestamp}
     * @param warnings warnings for the client ({@code Warning} headers)
     * @param claims the claims signed, for audit (kube annotates the jti)
     */
    public record Issued(ObjectNode response, List<String> warnings, ServiceAccountClaims claims) {}

    /**
     * Step 1: reads the body of a request to {@code
     * namespaces/<namespace>/serviceaccounts/<name>/token}.
     */
    public static Step<Request> read(String namespace, String name, ObjectNode body) {
        JsonNode meta = body.path("metadata");
        String bodyName = meta.path("name").asText("");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            return invalid(
                    name,
                    FieldError.invalid(
                            "metadata.name",
                            bodyName,
                            "must match the service account name if specified"));
        }
        String bodyNamespace = meta.path("namespace").asText("");
        if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
            return invalid(
                    name,
                    FieldError.invalid(
                            "metadata.namespace",
                            bodyNamespace,
                            "must match the service account namespace if specified"));
        }
        JsonNode spec = body.path("spec");
        if (!spec.isMissingNode() && !spec.isNull() && !spec.isObject()) {
            return cannotDecode("spec", "TokenRequestSpec", "object", spec);
        }
        List<String> audiences = new ArrayList<>();
        JsonNode auds = spec.path("audiences");
        if (auds.isArray()) {
            for (JsonNode a : auds) {
                if (!a.isTextual()) {
                    return cannotDecode("spec.audiences", "TokenRequestSpec", "string", a);
                }
                audiences.add(a.asText());
            }
        } else if (!auds.isMissingNode() && !auds.isNull()) {
            return cannotDecode("spec.audiences", "TokenRequestSpec", "[]string", auds);
        }
        long expiration = DEFAULT_EXPIRATION_SECONDS;
        JsonNode exp = spec.path("expirationSeconds");
        if (!exp.isMissingNode() && !exp.isNull()) {
            if (!exp.isIntegralNumber() || !exp.canConvertToLong()) {
                return cannotDecode("spec.expirationSeconds", "TokenRequestSpec", "int64", exp);
            }
            expiration = exp.asLong();
        }
        JsonNode ref = spec.path("boundObjectRef");
        Optional<JsonNode> boundObjectRef = Optional.empty();
        if (ref.isObject()) {
            for (String field : List.of("kind", "apiVersion", "name", "uid")) {
                JsonNode v = ref.path(field);
                if (!v.isMissingNode() && !v.isNull() && !v.isTextual()) {
                    return cannotDecode(
                            "spec.boundObjectRef." + field, "BoundObjectReference", "string", v);
                }
            }
            boundObjectRef = Optional.of(ref);
        } else if (!ref.isMissingNode() && !ref.isNull()) {
            return cannotDecode(
                    "spec.boundObjectRef", "TokenRequestSpec", "BoundObjectReference", ref);
        }
        return new Ok<>(new Request(namespace, name, body, audiences, expiration, boundObjectRef));
    }

    /** Step 3: kube's defaults and validation, after the service account was found. */
    public static Step<Validated> validate(Request request, Settings settings) {
        Request r =
                request.audiences().isEmpty()
                        ? new Request(
                                request.namespace(),
                                request.name(),
                                request.body(),
                                settings.apiAudiences(),
                                request.expirationSeconds(),
                                request.boundObjectRef())
                        : request;
        List<FieldError> errors = new ArrayList<>();
        if (r.expirationSeconds() < MIN_EXPIRATION_SECONDS) {
            errors.add(
                    FieldError.invalid(
                            "spec.expirationSeconds",
                            r.expirationSeconds(),
                            "may not specify a duration less than 10 minutes"));
        }
        if (r.expirationSeconds() > MAX_EXPIRATION_SECONDS) {
            errors.add(
                    FieldError.invalid(
                            "spec.expirationSeconds",
                            r.expirationSeconds(),
                            "may not specify a duration larger than 2^32 seconds"));
        }
        if (!errors.isEmpty()) {
            return new Refused<>(ApiStatus.invalid(GROUP, KIND, "", errors));
        }
        if (r.boundObjectRef().isEmpty()) {
            return new Ok<>(new Validated(r, Optional.empty()));
        }
        JsonNode ref = r.boundObjectRef().get();
        String kind = ref.path("kind").asText("");
        String apiVersion = ref.path("apiVersion").asText("");
        String[] gv = groupVersion(apiVersion);
        if (!gv[0].isEmpty() || !List.of("Pod", "Secret", "Node").contains(kind)) {
            return new Refused<>(
                    ApiStatus.badRequest(
                            "cannot bind token to object of type "
                                    + gv[0]
                                    + "/"
                                    + gv[1]
                                    + ", Kind="
                                    + kind));
        }
        String refName = ref.path("name").asText("");
        if (refName.isEmpty()) {
            // What kube's lookup of an object without a name answers.
            return new Refused<>(ApiStatus.badRequest("Name parameter required."));
        }
        return new Ok<>(
                new Validated(
                        r, Optional.of(new BoundRef(kind, refName, ref.path("uid").asText("")))));
    }

    /**
     * Step 5: checks the looked-up objects and signs the token.
     *
     * @param serviceAccount the service account
     * @param bound the object {@link Validated#bound} names, when it names one
     * @param podNode for a pod on a node: the node, or empty when it does not exist
     * @param now the time of issue
     * @param id the token's {@code jti} (kube: a random UUID)
     */
    public static Step<Issued> issue(
            Validated validated,
            ObjectNode serviceAccount,
            Optional<ObjectNode> bound,
            Optional<ObjectNode> podNode,
            Settings settings,
            ServiceAccountTokenIssuer issuer,
            Instant now,
            String id) {
        Request r = validated.request();
        ServiceAccountClaims.Binding binding = new ServiceAccountClaims.Unbound();
        if (validated.bound().isPresent()) {
            BoundRef ref = validated.bound().get();
            ObjectNode object =
                    bound.orElseThrow(
                            () ->
                                    new IllegalArgumentException(
                                            "the bound object was not looked up"));
            String uid = object.path("metadata").path("uid").asText("");
            ObjectRef objectRef = new ObjectRef(ref.name(), uid);
            switch (ref.kind()) {
                case "Pod" -> {
                    String podAccount = object.path("spec").path("serviceAccountName").asText("");
                    if (!r.name().equals(podAccount)) {
                        return new Refused<>(
                                ApiStatus.badRequest(
                                        "cannot bind token for serviceaccount \""
                                                + r.name()
                                                + "\" to pod running with different serviceaccount"
                                                + " name."));
                    }
                    String nodeName = object.path("spec").path("nodeName").asText("");
                    Optional<ObjectRef> node =
                            nodeName.isEmpty()
                                    ? Optional.empty()
                                    : Optional.of(
                                            new ObjectRef(
                                                    nodeName,
                                                    podNode.map(
                                                                    n ->
                                                                            n.path("metadata")
                                                                                    .path("uid")
                                                                                    .asText(""))
                                                            .orElse("")));
                    binding = new ServiceAccountClaims.ToPod(objectRef, node);
                }
                case "Secret" -> binding = new ServiceAccountClaims.ToSecret(objectRef);
                default -> binding = new ServiceAccountClaims.ToNode(objectRef);
            }
            if (!ref.uid().isEmpty() && !ref.uid().equals(uid)) {
                return new Refused<>(
                        ApiStatus.conflict(
                                new GroupResource("", ref.kind()),
                                ref.name(),
                                "the UID in the bound object reference ("
                                        + ref.uid()
                                        + ") does not match the UID in record. The object might"
                                        + " have been deleted and then recreated"));
            }
        }
        List<String> warnings = new ArrayList<>();
        long expirationSeconds = r.expirationSeconds();
        long max = settings.maxExpiration().getSeconds();
        if (max > 0 && expirationSeconds > max) {
            warnings.add(
                    "requested expiration of "
                            + expirationSeconds
                            + " seconds shortened to "
                            + max
                            + " seconds");
            expirationSeconds = max;
        }
        Duration lifetime = Duration.ofSeconds(expirationSeconds);
        Duration warnAfter = Duration.ZERO;
        if (settings.extendExpiration()
                && binding instanceof ServiceAccountClaims.ToPod
                && expirationSeconds == WARN_ONLY_EXPIRATION_SECONDS
                && settings.apiAudiences().containsAll(r.audiences())) {
            warnAfter = lifetime;
            lifetime = EXTENDED_EXPIRATION;
        }
        ServiceAccountClaims claims =
                ServiceAccountClaims.of(
                        r.namespace(),
                        new ObjectRef(
                                r.name(), serviceAccount.path("metadata").path("uid").asText("")),
                        binding,
                        r.audiences(),
                        now,
                        lifetime,
                        warnAfter,
                        id);
        String token = issuer.issue(claims);
        return new Ok<>(new Issued(response(r, expirationSeconds, token, now), warnings, claims));
    }

    private static ObjectNode response(
            Request r, long expirationSeconds, String token, Instant now) {
        ObjectNode out = r.body().deepCopy();
        out.put("kind", KIND);
        out.put("apiVersion", GROUP + "/v1");
        ObjectNode meta =
                out.path("metadata").isObject()
                        ? (ObjectNode) out.get("metadata")
                        : out.putObject("metadata");
        meta.put("name", r.name());
        meta.put("namespace", r.namespace());
        meta.put("creationTimestamp", Timestamps.format(now));
        ObjectNode spec =
                out.path("spec").isObject() ? (ObjectNode) out.get("spec") : out.putObject("spec");
        spec.remove("audiences");
        spec.putArray("audiences").addAll(r.audiences().stream().map(spec::textNode).toList());
        spec.put("expirationSeconds", expirationSeconds);
        ObjectNode status = out.putObject("status");
        status.put("token", token);
        status.put("expirationTimestamp", Timestamps.format(now.plusSeconds(expirationSeconds)));
        return out;
    }

    // kube's schema.ParseGroupVersion as FromAPIVersionAndKind uses it: "v1" is core, "g/v" a
    // group, anything with more slashes neither (and then counts as core, as in kube).
    private static String[] groupVersion(String apiVersion) {
        if (apiVersion.isEmpty() || apiVersion.equals("/")) {
            return new String[] {"", ""};
        }
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return new String[] {"", apiVersion};
        }
        if (apiVersion.indexOf('/', slash + 1) >= 0) {
            return new String[] {"", ""};
        }
        return new String[] {apiVersion.substring(0, slash), apiVersion.substring(slash + 1)};
    }

    private static <T> Step<T> invalid(String name, FieldError error) {
        return new Refused<>(ApiStatus.invalid(GROUP, KIND, name, List.of(error)));
    }

    // kube's answer to a body whose field has the wrong JSON type.
    private static <T> Step<T> cannotDecode(
            String field, String goStruct, String goType, JsonNode value) {
        return new Refused<>(
                ApiStatus.badRequest(
                        "TokenRequest in version \"v1\" cannot be handled as a TokenRequest: json:"
                                + " cannot unmarshal "
                                + jsonType(value)
                                + " into Go struct field "
                                + goStruct
                                + "."
                                + field
                                + " of type "
                                + goType));
    }

    private static String jsonType(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        if (v.isArray()) {
            return "array";
        }
        return "object";
    }
}
