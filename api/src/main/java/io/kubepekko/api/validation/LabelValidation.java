package io.kubepekko.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Validation of label maps and {@code metav1.LabelSelector}s, and selector matching for the
 * "selector must match template labels" checks of the workload kinds.
 */
public final class LabelValidation {
    private LabelValidation() {}

    private static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    /**
     * Keys must be qualified names and values label values; errors carry the map path, not the key.
     */
    public static List<FieldError> labels(JsonNode labels, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (labels == null || !labels.isObject()) {
            return errs;
        }
        labels.properties()
                .iterator()
                .forEachRemaining(
                        e -> {
                            errs.addAll(labelKey(e.getKey(), path));
                            String value = e.getValue().isNull() ? "" : e.getValue().asText();
                            for (String msg : NameValidation.labelValue(value)) {
                                errs.add(FieldError.invalid(path.toString(), value, msg));
                            }
                        });
        return errs;
    }

    public static List<FieldError> labelKey(String key, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        for (String msg : NameValidation.qualifiedName(key)) {
            errs.add(FieldError.invalid(path.toString(), key, msg));
        }
        return errs;
    }

    /** {@code ValidateLabelSelector}: matchLabels and matchExpressions (operator, key, values). */
    public static List<FieldError> selector(JsonNode selector, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (selector == null || !selector.isObject()) {
            return errs;
        }
        errs.addAll(labels(selector.get("matchLabels"), path.child("matchLabels")));
        JsonNode exprs = selector.get("matchExpressions");
        if (exprs != null && exprs.isArray()) {
            for (int i = 0; i < exprs.size(); i++) {
                errs.addAll(requirement(exprs.get(i), path.child("matchExpressions").index(i)));
            }
        }
        return errs;
    }

    private static List<FieldError> requirement(JsonNode req, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String op = req.path("operator").asText("");
        JsonNode values = req.path("values");
        int count = values.isArray() ? values.size() : 0;
        switch (op) {
            case "In", "NotIn" -> {
                if (count == 0) {
                    errs.add(
                            FieldError.required(
                                    path.child("values").toString(),
                                    "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (count > 0) {
                    errs.add(
                            FieldError.forbidden(
                                    path.child("values").toString(),
                                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            default ->
                    errs.add(
                            FieldError.invalid(
                                    path.child("operator").toString(),
                                    op,
                                    "not a valid selector operator"));
        }
        errs.addAll(labelKey(req.path("key").asText(""), path.child("key")));
        for (int j = 0; j < count; j++) {
            String v = values.get(j).asText();
            for (String msg : NameValidation.labelValue(v)) {
                errs.add(FieldError.invalid(path.child("values").index(j).toString(), v, msg));
            }
        }
        return errs;
    }

    /**
     * Whether a selector has neither matchLabels nor matchExpressions (it selects nothing in
     * apps/v1).
     */
    public static boolean isEmpty(JsonNode selector) {
        return size(selector.get("matchLabels")) + size(selector.get("matchExpressions")) == 0;
    }

    /** Whether every requirement of a (valid) selector holds for {@code labels}. */
    public static boolean matches(JsonNode selector, Map<String, String> labels) {
        JsonNode ml = selector.get("matchLabels");
        if (ml != null && ml.isObject()) {
            var it = ml.properties().iterator();
            while (it.hasNext()) {
                var e = it.next();
                if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        JsonNode exprs = selector.get("matchExpressions");
        if (exprs != null && exprs.isArray()) {
            for (JsonNode req : exprs) {
                if (!requirementMatches(req, labels)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean requirementMatches(JsonNode req, Map<String, String> labels) {
        String key = req.path("key").asText("");
        List<String> values = new ArrayList<>();
        req.path("values").forEach(v -> values.add(v.asText()));
        boolean has = labels.containsKey(key);
        return switch (req.path("operator").asText("")) {
            case "In" -> has && values.contains(labels.get(key));
            case "NotIn" -> !has || !values.contains(labels.get(key));
            case "Exists" -> has;
            case "DoesNotExist" -> !has;
            default -> false;
        };
    }

    private static int size(JsonNode n) {
        return n == null || n.isNull() ? 0 : n.size();
    }
}
