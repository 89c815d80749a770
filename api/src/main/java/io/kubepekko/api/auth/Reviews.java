package io.kubepekko.api.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code authentication.k8s.io/v1} reviews as kube's registry answers them: TokenReview (who
 * does this token stand for, for these audiences) and SelfSubjectReview ({@code kubectl auth
 * whoami}: who am I).
 */
public final class Reviews {
    private Reviews() {}

    public static final String API_VERSION = "authentication.k8s.io/v1";

    /** The answer to a TokenReview: the response body, or kube's error. */
    public sealed interface TokenReviewAnswer {}

    /**
     * @param response the TokenReview with its status
     */
    public record Reviewed(ObjectNode response) implements TokenReviewAnswer {}

    /**
     * @param status kube's error
     */
    public record Refused(ApiStatus status) implements TokenReviewAnswer {}

    /**
     * Evaluates a TokenReview body as kube's {@code tokenreview} REST: {@code spec.token} is
     * required (400); it is checked for {@code spec.audiences} or else the API server's audiences
     * by the server's token authenticators; {@code status.authenticated}, {@code status.user} (with
     * {@code system:authenticated} added as for any request), {@code status.audiences} and {@code
     * status.error} report the outcome; {@code spec} is echoed.
     *
     * @param body the TokenReview
     * @param tokens the server's bearer-token authentication (e.g. {@link
     *     BearerTokenAuthenticator#authenticateToken})
     * @param apiAudiences the API server's audiences
     */
    public static TokenReviewAnswer tokenReview(
            ObjectNode body, TokenAuthenticator tokens, List<String> apiAudiences) {
        JsonNode spec = body.path("spec");
        JsonNode tokenNode = spec.path("token");
        if (!tokenNode.isMissingNode() && !tokenNode.isNull() && !tokenNode.isTextual()) {
            return new Refused(
                    ApiStatus.badRequest(
                            "TokenReview in version \"v1\" cannot be handled as a TokenReview:"
                                    + " json: cannot unmarshal "
                                    + (tokenNode.isNumber() ? "number" : "object")
                                    + " into Go struct field TokenReviewSpec.spec.token of type"
                                    + " string"));
        }
        String token = tokenNode.asText("");
        if (token.isEmpty()) {
            return new Refused(
                    ApiStatus.badRequest("token is required for TokenReview in authentication"));
        }
        List<String> audiences = new ArrayList<>();
        JsonNode audiencesNode = spec.path("audiences");
        if (!audiencesNode.isMissingNode() && !audiencesNode.isNull() && !audiencesNode.isArray()) {
            return new Refused(
                    ApiStatus.badRequest(
                            "TokenReview in version \"v1\" cannot be handled as a TokenReview:"
                                    + " json: cannot unmarshal "
                                    + (audiencesNode.isTextual() ? "string" : "object")
                                    + " into Go struct field TokenReviewSpec.spec.audiences of"
                                    + " type []string"));
        }
        for (JsonNode a : audiencesNode) {
            if (!a.isTextual()) {
                return new Refused(
                        ApiStatus.badRequest(
                                "TokenReview in version \"v1\" cannot be handled as a TokenReview:"
                                        + " json: cannot unmarshal number into Go struct field"
                                        + " TokenReviewSpec.spec.audiences of type string"));
            }
            audiences.add(a.asText());
        }
        List<String> target = audiences.isEmpty() ? List.copyOf(apiAudiences) : audiences;
        Authentication answer;
        try {
            answer = tokens.authenticateToken(token, target);
        } catch (RuntimeException e) {
            answer = new Authentication.Rejected("token authenticator failed");
        }
        ObjectNode out = body.deepCopy();
        out.put("kind", "TokenReview");
        out.put("apiVersion", API_VERSION);
        ObjectNode meta = metadata(out);
        if (!meta.has("creationTimestamp")) {
            meta.putNull("creationTimestamp");
        }
        ObjectNode status = out.putObject("status");
        if (answer instanceof Authentication.Authenticated a) {
            if (!target.isEmpty()
                    && TokenAuthenticator.intersect(target, a.audiences()).isEmpty()) {
                return new Refused(ApiStatus.internal("error validating audiences"));
            }
            status.put("authenticated", true);
            status.set("user", userInfo(AuthenticatorUnion.withAuthenticatedGroup(a.user())));
            if (!a.audiences().isEmpty()) {
                ArrayNode auds = status.putArray("audiences");
                a.audiences().forEach(auds::add);
            }
        } else {
            status.putObject("user");
            String reason =
                    answer instanceof Authentication.Rejected r
                            ? r.reason()
                            : BearerTokenAuthenticator.INVALID_TOKEN;
            status.put("error", reason);
        }
        return new Reviewed(out);
    }

    /**
     * The SelfSubjectReview kube answers to {@code user}: the user's name, uid, groups and extra in
     * {@code status.userInfo}, stamped with the time of the request.
     */
    public static ObjectNode selfSubjectReview(UserInfo user, Instant now) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("kind", "SelfSubjectReview");
        out.put("apiVersion", API_VERSION);
        out.putObject("metadata").put("creationTimestamp", Timestamps.format(now));
        out.putObject("status").set("userInfo", userInfo(user));
        return out;
    }

    /** kube's {@code authentication.k8s.io/v1} UserInfo: empty fields left out (omitempty). */
    public static ObjectNode userInfo(UserInfo user) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("username", user.name());
        if (!user.uid().isEmpty()) {
            o.put("uid", user.uid());
        }
        if (!user.groups().isEmpty()) {
            ArrayNode groups = o.putArray("groups");
            user.groups().forEach(groups::add);
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = o.putObject("extra");
            // Go writes map keys sorted.
            for (Map.Entry<String, List<String>> e : new TreeMap<>(user.extra()).entrySet()) {
                ArrayNode values = extra.putArray(e.getKey());
                e.getValue().forEach(values::add);
            }
        }
        return o;
    }

    private static ObjectNode metadata(ObjectNode out) {
        JsonNode meta = out.path("metadata");
        return meta.isObject() ? (ObjectNode) meta : out.putObject("metadata");
    }
}
