package io.kubepekko.api.auth.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.AccessReviews.Attributes;
import io.kubepekko.api.auth.AccessReviews.Decision;
import io.kubepekko.api.auth.AccessReviews.NonResourceAttributes;
import io.kubepekko.api.auth.AccessReviews.ResourceAttributes;
import io.kubepekko.api.auth.AccessReviews.Rules;
import io.kubepekko.api.auth.AccessReviews.Subject;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.managed.ManagedFields;
import io.kubepekko.api.managed.TypedFields;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.protobuf.ProtoKinds;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.store.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The review resources of {@code authentication.k8s.io/v1} and {@code authorization.k8s.io/v1}, as
 * kube-apiserver's REST storages answer their creates ({@code pkg/registry/authentication/
 * tokenreview}, {@code selfsubjectreview}; {@code pkg/registry/authorization/*}): validation with
 * kube's messages ({@code pkg/apis/authorization/validation}), one question to {@link
 * AccessReviews}, and the object kube answers with: the request echoed with its {@code status} for
 * the token and access reviews, a new object for SelfSubjectReview and SelfSubjectRulesReview.
 */
public final class Reviews {
    private Reviews() {}

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * The kind kube names in a 422: the decoded internal object's, whose kind is empty, so the
     * message reads {@code .authorization.k8s.io "" is invalid: ...}.
     */
    static final String INVALID_KIND = "";

    static final String AUTHORIZATION = "authorization.k8s.io";

    /** authentication.k8s.io/v1 TokenReview. */
    public static final Review TOKEN_REVIEW = refusalsAsValues(Reviews::tokenReview);

    /** authentication.k8s.io/v1 SelfSubjectReview ({@code kubectl auth whoami}). */
    public static final Review SELF_SUBJECT_REVIEW = refusalsAsValues(Reviews::selfSubjectReview);

    /** authorization.k8s.io/v1 SubjectAccessReview. */
    public static final Review SUBJECT_ACCESS_REVIEW =
            refusalsAsValues(Reviews::subjectAccessReview);

    /** authorization.k8s.io/v1 LocalSubjectAccessReview (namespaced). */
    public static final Review LOCAL_SUBJECT_ACCESS_REVIEW =
            refusalsAsValues(Reviews::localSubjectAccessReview);

    /** authorization.k8s.io/v1 SelfSubjectAccessReview ({@code kubectl auth can-i}). */
    public static final Review SELF_SUBJECT_ACCESS_REVIEW =
            refusalsAsValues(Reviews::selfSubjectAccessReview);

    /** authorization.k8s.io/v1 SelfSubjectRulesReview ({@code kubectl auth can-i --list}). */
    public static final Review SELF_SUBJECT_RULES_REVIEW =
            refusalsAsValues(Reviews::selfSubjectRulesReview);

    /** A review's validation, which refuses by {@link ApiException} from deep in its checks. */
    @FunctionalInterface
    private interface Checked {
        ObjectNode answer(ObjectNode body, Review.Context context);
    }

    /** The checks' one catch: a refusal leaves a review as a value. */
    private static Review refusalsAsValues(Checked checked) {
        return (body, context) -> {
            try {
                return new Review.Answer.Answered(checked.answer(body, context));
            } catch (ApiException refused) {
                return new Review.Answer.Refused(refused.status());
            }
        };
    }

    private static final TypedFields FIELDS = new TypedFields(MergeMetadata.builtin());

    /**
     * The fields kube-apiserver's create handler wipes from every body ({@code
     * rest.WipeObjectMetaSystemFields}).
     */
    private static final List<String> SYSTEM_FIELDS =
            List.of(
                    "creationTimestamp",
                    "uid",
                    "deletionTimestamp",
                    "deletionGracePeriodSeconds",
                    "selfLink");

    /**
     * What kube-apiserver's create handler does to every body before the storage sees it, the
     * reviews' included: the system fields of its metadata wiped, and in {@code
     * metadata.managedFields} one Update entry of {@code manager} owning the fields the body sets
     * (the field manager). The reviews that echo their request (TokenReview, the access reviews,
     * TokenRequest) answer with those managed fields.
     *
     * @param kind the body's kind, whose message definitions name its fields
     */
    public static void beforeCreate(
            ObjectNode body, GroupVersionKind kind, String manager, Instant now) {
        if (body.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove(SYSTEM_FIELDS);
        }
        String message =
                ProtoKinds.message(
                        ProtoSchema.builtin(), kind.group(), kind.version(), kind.kind());
        if (message == null) {
            return;
        }
        ObjectNode meta = ObjectMeta.of(body);
        meta.remove("managedFields");
        List<ManagedFields.Entry> entries =
                ManagedFields.update(
                        List.of(),
                        manager == null || manager.isEmpty() ? "unknown" : manager,
                        null,
                        kind.apiVersion(),
                        Timestamps.format(now),
                        FIELDS.compare(null, body, message));
        if (!entries.isEmpty()) {
            meta.set("managedFields", ManagedFields.render(entries));
        }
    }

    private static ObjectNode tokenReview(ObjectNode body, Review.Context c) {
        JsonNode spec = body.path("spec");
        String token = spec.path("token").asText("");
        if (token.isEmpty()) {
            throw ApiStatus.badRequest("token is required for TokenReview in authentication")
                    .exception();
        }
        AccessReviews.TokenReview review =
                c.reviews().reviewToken(token, strings(spec.path("audiences")));
        ObjectNode status = NODES.objectNode();
        if (review.authenticated()) {
            status.put("authenticated", true);
        }
        ObjectNode user = status.putObject("user");
        review.user().ifPresent(u -> userInfo(user, u));
        if (review.user().isPresent() && !review.audiences().isEmpty()) {
            ArrayNode audiences = status.putArray("audiences");
            review.audiences().forEach(audiences::add);
        }
        if (!review.error().isEmpty()) {
            status.put("error", review.error());
        }
        return echo(body, status);
    }

    private static ObjectNode selfSubjectReview(ObjectNode body, Review.Context c) {
        ObjectNode out = head(body);
        out.putObject("metadata").put("creationTimestamp", Timestamps.format(c.now()));
        userInfo(out.putObject("status").putObject("userInfo"), c.requester());
        return out;
    }

    private static ObjectNode subjectAccessReview(ObjectNode body, Review.Context c) {
        JsonNode spec = body.path("spec");
        List<FieldError> errors = ReviewValidation.specErrors(spec, true);
        if (!ReviewValidation.metadataEmpty(body, false)) {
            errors.add(
                    FieldError.invalid(
                            "metadata",
                            GoValue.of(GoSyntax.objectMeta(body.path("metadata"))),
                            "must be empty"));
        }
        ReviewValidation.refuseIf(errors);
        return echo(body, decision(c.reviews().authorize(subject(spec), attributes(spec))));
    }

    private static ObjectNode localSubjectAccessReview(ObjectNode body, Review.Context c) {
        JsonNode spec = body.path("spec");
        String namespace = body.path("metadata").path("namespace").asText("");
        List<FieldError> errors = ReviewValidation.specErrors(spec, true);
        if (!ReviewValidation.metadataEmpty(body, true)) {
            errors.add(
                    FieldError.invalid(
                            "metadata",
                            GoValue.of(GoSyntax.objectMeta(body.path("metadata"))),
                            "must be empty except for namespace"));
        }
        JsonNode resource = spec.path("resourceAttributes");
        if (ReviewValidation.present(resource)
                && !resource.path("namespace").asText("").equals(namespace)) {
            errors.add(
                    FieldError.invalid(
                            "spec.resourceAttributes.namespace",
                            resource.path("namespace").asText(""),
                            "must match metadata.namespace"));
        }
        JsonNode nonResource = spec.path("nonResourceAttributes");
        if (ReviewValidation.present(nonResource)) {
            errors.add(
                    FieldError.invalid(
                            "spec.nonResourceAttributes",
                            GoValue.of(GoSyntax.nonResourceAttributes(nonResource)),
                            "disallowed on this kind of request"));
        }
        ReviewValidation.refuseIf(errors);
        // After validation, as kube checks the URL's namespace (the body's was aligned with it).
        if (c.namespace() == null || c.namespace().isEmpty()) {
            throw ApiStatus.badRequest("namespace is required on this type: ").exception();
        }
        if (!c.namespace().equals(namespace)) {
            throw ApiStatus.badRequest(
                            "spec.resourceAttributes.namespace must match namespace: "
                                    + c.namespace())
                    .exception();
        }
        return echo(body, decision(c.reviews().authorize(subject(spec), attributes(spec))));
    }

    private static ObjectNode selfSubjectAccessReview(ObjectNode body, Review.Context c) {
        JsonNode spec = body.path("spec");
        List<FieldError> errors = ReviewValidation.specErrors(spec, false);
        if (!ReviewValidation.metadataEmpty(body, false)) {
            errors.add(
                    FieldError.invalid(
                            "metadata",
                            GoValue.of(GoSyntax.objectMeta(body.path("metadata"))),
                            "must be empty"));
        }
        ReviewValidation.refuseIf(errors);
        return echo(
                body, decision(c.reviews().authorize(Subject.of(c.requester()), attributes(spec))));
    }

    private static ObjectNode selfSubjectRulesReview(ObjectNode body, Review.Context c) {
        String namespace = body.path("spec").path("namespace").asText("");
        if (namespace.isEmpty()) {
            throw ApiStatus.badRequest("no namespace on request").exception();
        }
        Rules rules = c.reviews().rules(c.requester(), namespace);
        // kube answers a new object: the request's spec is not echoed.
        ObjectNode out = head(body);
        out.putObject("metadata").putNull("creationTimestamp");
        out.putObject("spec");
        ObjectNode status = out.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        for (AccessReviews.ResourceRule r : rules.resourceRules()) {
            ObjectNode rule = resourceRules.addObject();
            array(rule, "verbs", r.verbs(), true);
            array(rule, "apiGroups", r.apiGroups(), false);
            array(rule, "resources", r.resources(), false);
            array(rule, "resourceNames", r.resourceNames(), false);
        }
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (AccessReviews.NonResourceRule r : rules.nonResourceRules()) {
            ObjectNode rule = nonResourceRules.addObject();
            array(rule, "verbs", r.verbs(), true);
            array(rule, "nonResourceURLs", r.nonResourceURLs(), false);
        }
        status.put("incomplete", rules.incomplete());
        if (!rules.evaluationError().isEmpty()) {
            status.put("evaluationError", rules.evaluationError());
        }
        return out;
    }

    /** The subject a SubjectAccessReview's spec names. */
    private static Subject subject(JsonNode spec) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        spec.path("extra").properties().forEach(e -> extra.put(e.getKey(), strings(e.getValue())));
        return new Subject(
                spec.path("user").asText(""),
                spec.path("uid").asText(""),
                strings(spec.path("groups")),
                extra);
    }

    private static Attributes attributes(JsonNode spec) {
        JsonNode r = spec.path("resourceAttributes");
        if (ReviewValidation.present(r)) {
            return new ResourceAttributes(
                    r.path("namespace").asText(""),
                    r.path("verb").asText(""),
                    r.path("group").asText(""),
                    r.path("version").asText(""),
                    r.path("resource").asText(""),
                    r.path("subresource").asText(""),
                    r.path("name").asText(""),
                    r.path("fieldSelector").path("rawSelector").asText(""),
                    r.path("labelSelector").path("rawSelector").asText(""));
        }
        JsonNode n = spec.path("nonResourceAttributes");
        return new NonResourceAttributes(n.path("path").asText(""), n.path("verb").asText(""));
    }

    /** SubjectAccessReviewStatus as kube encodes it: {@code allowed} always, the rest if set. */
    private static ObjectNode decision(Decision d) {
        ObjectNode status = NODES.objectNode();
        status.put("allowed", d.allowed());
        if (d.denied()) {
            status.put("denied", true);
        }
        if (!d.reason().isEmpty()) {
            status.put("reason", d.reason());
        }
        if (!d.evaluationError().isEmpty()) {
            status.put("evaluationError", d.evaluationError());
        }
        return status;
    }

    /** authentication/v1 UserInfo: every field omitted when empty. */
    private static void userInfo(ObjectNode out, UserInfo u) {
        out.put("username", u.name());
        if (!u.uid().isEmpty()) {
            out.put("uid", u.uid());
        }
        array(out, "groups", u.groups(), false);
        if (!u.extra().isEmpty()) {
            ObjectNode extra = out.putObject("extra");
            u.extra().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> array(extra, e.getKey(), e.getValue(), true));
        }
    }

    private static void array(ObjectNode out, String field, List<String> values, boolean always) {
        if (always || !values.isEmpty()) {
            ArrayNode a = out.putArray(field);
            values.forEach(a::add);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText("")));
        return out;
    }

    /** kind and apiVersion of the request, first as kube writes them. */
    private static ObjectNode head(ObjectNode body) {
        ObjectNode out = NODES.objectNode();
        out.set("kind", body.get("kind"));
        out.set("apiVersion", body.get("apiVersion"));
        return out;
    }

    /**
     * The request as kube encodes it back: kind, apiVersion, metadata (empty but for the namespace
     * of a namespaced review and the managed fields, with kube's {@code creationTimestamp: null}),
     * the spec as sent and {@code status}.
     */
    private static ObjectNode echo(ObjectNode body, ObjectNode status) {
        ObjectNode out = head(body);
        ObjectNode metadata = out.putObject("metadata");
        String namespace = body.path("metadata").path("namespace").asText("");
        if (!namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        metadata.putNull("creationTimestamp");
        JsonNode managed = body.path("metadata").get("managedFields");
        if (managed != null && !managed.isEmpty()) {
            metadata.set("managedFields", managed);
        }
        out.set("spec", body.has("spec") ? body.get("spec") : NODES.objectNode());
        out.set("status", status);
        return out;
    }
}
