package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code admission.k8s.io/v1} AdmissionReview a webhook is sent, and what its answer says, as
 * kube's {@code CreateV1AdmissionReview} and {@code VerifyAdmissionResponse} build and read them.
 */
public final class AdmissionReviews {
    private AdmissionReviews() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * The review of {@code request} sent in {@code version} (the request's own, or the equivalent
     * one the webhook's rule names).
     */
    public static ObjectNode request(
            String uid, WebhookRequest request, WebhookRules.Version version) {
        ObjectNode review = F.objectNode();
        review.put("kind", "AdmissionReview");
        review.put("apiVersion", "admission.k8s.io/v1");
        ObjectNode r = review.putObject("request");
        r.put("uid", uid);
        gvk(r.putObject("kind"), version.kind());
        gvr(r.putObject("resource"), version.resource());
        if (!request.subresource().isEmpty()) {
            r.put("subResource", request.subresource());
        }
        gvk(r.putObject("requestKind"), request.kind());
        gvr(r.putObject("requestResource"), request.resource());
        if (!request.subresource().isEmpty()) {
            r.put("requestSubResource", request.subresource());
        }
        if (!request.name().isEmpty()) {
            r.put("name", request.name());
        }
        if (!request.namespace().isEmpty()) {
            r.put("namespace", request.namespace());
        }
        r.put("operation", request.operation());
        ObjectNode user = r.putObject("userInfo");
        if (request.user() != null) {
            user.put("username", request.user().name());
            if (request.user().uid() != null && !request.user().uid().isEmpty()) {
                user.put("uid", request.user().uid());
            }
            ArrayNode groups = user.putArray("groups");
            request.user().groups().forEach(groups::add);
            if (request.user().extra() != null && !request.user().extra().isEmpty()) {
                ObjectNode extra = user.putObject("extra");
                for (Map.Entry<String, List<String>> e : request.user().extra().entrySet()) {
                    ArrayNode values = extra.putArray(e.getKey());
                    e.getValue().forEach(values::add);
                }
            }
        }
        r.set("object", request.object() == null ? F.nullNode() : request.object());
        r.set("oldObject", request.oldObject() == null ? F.nullNode() : request.oldObject());
        r.put("dryRun", request.dryRun());
        r.set("options", request.options() == null ? F.nullNode() : request.options());
        return review;
    }

    private static void gvk(ObjectNode n, WebhookRequest.Gvk gvk) {
        n.put("group", gvk.group());
        n.put("version", gvk.version());
        n.put("kind", gvk.kind());
    }

    private static void gvr(ObjectNode n, WebhookRequest.Gvr gvr) {
        n.put("group", gvr.group());
        n.put("version", gvr.version());
        n.put("resource", gvr.resource());
    }

    /** What a webhook answered. */
    public sealed interface Answer {}

    /**
     * A well-formed answer.
     *
     * @param status the answer's {@code status}, null when it has none
     * @param patch the JSON patch of a mutating webhook, null when none
     */
    public record Verdict(
            boolean allowed,
            JsonNode status,
            byte[] patch,
            String patchType,
            List<String> warnings,
            Map<String, String> auditAnnotations)
            implements Answer {}

    /** An answer kube refuses, in its words ({@code received invalid webhook response: ...}). */
    public record Malformed(String reason) implements Answer {}

    /** kube's {@code VerifyAdmissionResponse} of a v1 review, the answer's body as sent. */
    public static Answer response(byte[] body, String uid, boolean mutating) {
        JsonNode review;
        try {
            review = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            return new Malformed(null);
        }
        if (review == null || !review.isObject()) {
            return new Malformed(null);
        }
        JsonNode response = review.get("response");
        if (response == null || response.isNull()) {
            return new Malformed("webhook response was absent");
        }
        String got = response.path("uid").asText("");
        if (!got.equals(uid)) {
            return new Malformed("expected response.uid=\"" + uid + "\", got \"" + got + "\"");
        }
        String apiVersion = review.path("apiVersion").asText("");
        String kind = review.path("kind").asText("");
        if (!apiVersion.equals("admission.k8s.io/v1") || !kind.equals("AdmissionReview")) {
            return new Malformed(
                    "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
                            + gvkString(apiVersion, kind));
        }
        byte[] patch = null;
        JsonNode p = response.get("patch");
        boolean hasPatch = p != null && !p.isNull() && !p.asText("").isEmpty();
        JsonNode pt = response.get("patchType");
        boolean hasType = pt != null && !pt.isNull();
        if (mutating) {
            if (hasPatch && !hasType) {
                return new Malformed("webhook returned response.patch but not response.patchType");
            }
            if (!hasPatch && hasType) {
                return new Malformed("webhook returned response.patchType but not response.patch");
            }
            if (hasType && pt.asText("").isEmpty()) {
                return new Malformed("webhook returned invalid response.patchType of \"\"");
            }
            if (hasPatch) {
                try {
                    patch = p.binaryValue();
                } catch (IOException e) {
                    return new Malformed(null);
                }
            }
        } else {
            if (hasPatch) {
                return new Malformed("validating webhook may not return response.patch");
            }
            if (hasType) {
                return new Malformed("validating webhook may not return response.patchType");
            }
        }
        List<String> warnings = new ArrayList<>();
        response.path("warnings").forEach(w -> warnings.add(w.asText()));
        Map<String, String> annotations = new TreeMap<>();
        response.path("auditAnnotations")
                .properties()
                .forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
        JsonNode status = response.get("status");
        return new Verdict(
                response.path("allowed").asBoolean(false),
                status == null || status.isNull() ? null : status,
                patch,
                hasType ? pt.asText() : null,
                List.copyOf(warnings),
                Map.copyOf(annotations));
    }

    /** Go's {@code GroupVersionKind.String()}: "group/version, Kind=kind". */
    private static String gvkString(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        return group + "/" + version + ", Kind=" + kind;
    }

    /**
     * kube's {@code ToStatusErr}: the webhook's status (a code under 400 made 400, a missing or
     * "Success" status "Failure") with the message {@code admission webhook "x" denied the request:
     * ...}.
     */
    public static ApiStatus denied(String webhook, JsonNode status) {
        String deniedBy = "admission webhook \"" + webhook + "\" denied the request";
        int code = status == null ? 0 : status.path("code").asInt(0);
        String reason = status == null ? "" : status.path("reason").asText("");
        String message = status == null ? "" : status.path("message").asText("");
        String text;
        if (!message.isEmpty()) {
            text = deniedBy + ": " + message;
        } else if (!reason.isEmpty()) {
            text = deniedBy + ": " + reason;
        } else {
            text = deniedBy + " without explanation";
        }
        ApiStatus.Details details = ApiStatus.Details.EMPTY;
        JsonNode d = status == null ? null : status.get("details");
        if (d != null && d.isObject()) {
            List<StatusCause> causes = new ArrayList<>();
            d.path("causes")
                    .forEach(
                            c ->
                                    causes.add(
                                            new StatusCause(
                                                    text(c, "reason"),
                                                    text(c, "message"),
                                                    text(c, "field"))));
            details =
                    new ApiStatus.Details(
                            text(d, "name"),
                            text(d, "group"),
                            text(d, "kind"),
                            text(d, "uid"),
                            causes,
                            d.hasNonNull("retryAfterSeconds")
                                    ? d.get("retryAfterSeconds").asInt()
                                    : null);
        }
        return new ApiStatus(code < 400 ? 400 : code, reason, text, details);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /**
     * kube's 500 for a webhook that could not be called or answered wrongly, when its failure
     * policy is Fail: {@code failed calling webhook "x": <reason>}.
     */
    public static ApiStatus failedCalling(String webhook, String reason) {
        return ApiStatus.internal("failed calling webhook \"" + webhook + "\": " + reason);
    }

    /** kube's 400 for a dry run that would call a webhook with side effects. */
    public static ApiStatus dryRunUnsupported(String webhook) {
        return ApiStatus.badRequest(
                "admission webhook \"" + webhook + "\" does not support dry run");
    }
}
