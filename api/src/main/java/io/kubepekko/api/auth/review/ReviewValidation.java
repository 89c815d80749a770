package io.kubepekko.api.auth.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's validation of the access reviews' spec and metadata ({@code
 * pkg/apis/authorization/validation}): exactly one of the attribute kinds, a user or groups where a
 * subject is named, well-formed selectors, empty metadata; the 422 it answers.
 */
final class ReviewValidation {
    private ReviewValidation() {}

    /**
     * {@code ValidateSubjectAccessReviewSpec} ({@code withSubject}) or {@code
     * ValidateSelfSubjectAccessReviewSpec}, in kube's order.
     */
    static List<FieldError> specErrors(JsonNode spec, boolean withSubject) {
        List<FieldError> errors = new ArrayList<>();
        JsonNode resource = spec.path("resourceAttributes");
        JsonNode nonResource = spec.path("nonResourceAttributes");
        if (present(resource) && present(nonResource)) {
            errors.add(
                    FieldError.invalid(
                            "spec.nonResourceAttributes",
                            GoValue.of(GoSyntax.nonResourceAttributes(nonResource)),
                            "cannot be specified in combination with resourceAttributes"));
        }
        if (!present(resource) && !present(nonResource)) {
            errors.add(
                    FieldError.invalid(
                            "spec.resourceAttributes",
                            null,
                            "exactly one of nonResourceAttributes or resourceAttributes must be"
                                    + " specified"));
        }
        if (withSubject
                && spec.path("user").asText("").isEmpty()
                && spec.path("groups").isEmpty()) {
            errors.add(
                    FieldError.invalid(
                            "spec.user",
                            spec.path("user").asText(""),
                            "at least one of user or group must be specified"));
        }
        if (present(resource)) {
            selectorErrors(resource.path("fieldSelector"), "fieldSelector", errors);
            selectorErrors(resource.path("labelSelector"), "labelSelector", errors);
        }
        return errors;
    }

    static void selectorErrors(JsonNode selector, String name, List<FieldError> errors) {
        if (!present(selector)) {
            return;
        }
        String path = "spec.resourceAttributes." + name;
        String raw = selector.path("rawSelector").asText("");
        boolean requirements = !selector.path("requirements").isEmpty();
        if (!raw.isEmpty() && requirements) {
            errors.add(
                    FieldError.invalid(
                            path + ".rawSelector",
                            raw,
                            "may not specified at the same time as requirements"));
        }
        if (raw.isEmpty() && !requirements) {
            errors.add(
                    FieldError.required(
                            path + ".requirements",
                            "when "
                                    + path
                                    + " is specified, requirements or rawSelector is required"));
        }
    }

    /**
     * Whether metadata is empty as kube's {@code Semantic.DeepEqual} with an empty ObjectMeta sees
     * it: managed fields never count, the namespace only where the review is namespaced, and empty
     * values equal absent ones.
     */
    static boolean metadataEmpty(ObjectNode body, boolean namespaced) {
        JsonNode metadata = body.path("metadata");
        for (Map.Entry<String, JsonNode> f : metadata.properties()) {
            String key = f.getKey();
            if (key.equals("managedFields") || (namespaced && key.equals("namespace"))) {
                continue;
            }
            JsonNode v = f.getValue();
            boolean empty =
                    v.isNull()
                            || (v.isTextual() && v.asText().isEmpty())
                            || (v.isNumber() && v.asLong() == 0)
                            || (v.isContainerNode() && v.isEmpty());
            if (!empty) {
                return false;
            }
        }
        return true;
    }

    static void refuseIf(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid(Reviews.AUTHORIZATION, Reviews.INVALID_KIND, "", errors)
                    .exception();
        }
    }

    static boolean present(JsonNode node) {
        return node.isObject();
    }
}
