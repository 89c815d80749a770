package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's checks of an autoscaling/v2 HorizontalPodAutoscaler's metrics ({@code validateMetrics},
 * {@code validateMetricSpec} and each source's validator): a known source type whose source, and
 * only it, is filled in; a named metric; a target of a known type with positive values; a
 * utilization or a raw value for resources, not both; and, with {@code minReplicas} 0, an Object or
 * External metric to scale from zero on.
 */
final class HpaMetricValidation {
    private HpaMetricValidation() {}

    /** The metric source types, as kube lists them (sorted). */
    private static final List<String> SOURCE_TYPES =
            List.of("ContainerResource", "External", "Object", "Pods", "Resource");

    /** Each source type's field, in the order kube looks for them. */
    private static final Map<String, String> FIELDS =
            Map.of(
                    "Object", "object",
                    "External", "external",
                    "Pods", "pods",
                    "Resource", "resource",
                    "ContainerResource", "containerResource");

    private static final List<String> FIELD_ORDER =
            List.of("object", "external", "pods", "resource", "containerResource");

    private static final List<String> TARGET_TYPES =
            List.of("Utilization", "Value", "AverageValue");

    static List<FieldError> metrics(
            List<JsonNode> metrics, FieldPath path, Long minReplicas, boolean objectsAllowInvalid) {
        List<FieldError> errs = new ArrayList<>();
        boolean scalesFromZero = false;
        for (int i = 0; i < metrics.size(); i++) {
            JsonNode m = metrics.get(i);
            errs.addAll(spec(m, path.index(i), objectsAllowInvalid));
            String type = Nodes.text(m, "type");
            scalesFromZero |= type.equals("Object") || type.equals("External");
        }
        if (minReplicas != null && minReplicas == 0 && !scalesFromZero) {
            errs.add(
                    FieldError.forbidden(
                            path.toString(),
                            "must specify at least one Object or External metric to support"
                                    + " scaling to zero replicas"));
        }
        return errs;
    }

    private static List<FieldError> spec(JsonNode m, FieldPath path, boolean objectsAllowInvalid) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(m, "type");
        if (type.isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("type").toString(), "must specify a metric source type"));
        }
        if (!SOURCE_TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path.child("type").toString(), type, SOURCE_TYPES));
        }
        List<String> present = new ArrayList<>();
        for (String f : FIELD_ORDER) {
            if (HpaV1Metrics.present(m, f)) {
                present.add(f);
                if (present.size() == 1) {
                    errs.addAll(source(f, m.get(f), path.child(f), objectsAllowInvalid));
                }
            }
        }
        String expected = FIELDS.get(type);
        if (expected == null) {
            errs.add(FieldError.notSupported(path.child("type").toString(), type, SOURCE_TYPES));
        } else if (!HpaV1Metrics.present(m, expected)) {
            errs.add(
                    FieldError.required(
                            path.child(expected).toString(),
                            "must populate information for the given metric source"));
        }
        if (present.size() != 1) {
            // kube walks a set here; sorted is the order it most often shows.
            present.stream()
                    .filter(f -> !f.equals(expected))
                    .sorted()
                    .forEach(
                            f ->
                                    errs.add(
                                            FieldError.forbidden(
                                                    path.child(f).toString(),
                                                    "must populate the given metric source only")));
        }
        return errs;
    }

    private static List<FieldError> source(
            String field, JsonNode src, FieldPath path, boolean objectsAllowInvalid) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode target = src.path("target");
        FieldPath targetPath = path.child("target");
        switch (field) {
            case "object" -> {
                errs.addAll(
                        HorizontalPodAutoscalerValidation.crossVersionReference(
                                src.path("describedObject"),
                                path.child("describedObject"),
                                true,
                                objectsAllowInvalid));
                errs.addAll(identifier(src.path("metric"), path.child("metric")));
                errs.addAll(target(target, targetPath));
                if (!HpaV1Metrics.present(target, "value")
                        && !HpaV1Metrics.present(target, "averageValue")) {
                    errs.add(
                            FieldError.required(
                                    targetPath.child("averageValue").toString(),
                                    "must set either a target value or averageValue"));
                }
            }
            case "external" -> {
                errs.addAll(identifier(src.path("metric"), path.child("metric")));
                errs.addAll(target(target, targetPath));
                boolean value = HpaV1Metrics.present(target, "value");
                boolean average = HpaV1Metrics.present(target, "averageValue");
                if (!value && !average) {
                    errs.add(
                            FieldError.required(
                                    targetPath.child("averageValue").toString(),
                                    "must set either a target value for metric or a per-pod"
                                            + " target"));
                }
                if (value && average) {
                    errs.add(
                            FieldError.forbidden(
                                    targetPath.child("value").toString(),
                                    "may not set both a target value for metric and a per-pod"
                                            + " target"));
                }
            }
            case "pods" -> {
                errs.addAll(identifier(src.path("metric"), path.child("metric")));
                errs.addAll(target(target, targetPath));
                if (!HpaV1Metrics.present(target, "averageValue")) {
                    errs.add(
                            FieldError.required(
                                    targetPath.child("averageValue").toString(),
                                    "must specify a positive target averageValue"));
                }
            }
            default -> {
                if (Nodes.text(src, "name").isEmpty()) {
                    errs.add(
                            FieldError.required(
                                    path.child("name").toString(), "must specify a resource name"));
                }
                if (field.equals("containerResource")) {
                    String container = Nodes.text(src, "container");
                    if (container.isEmpty()) {
                        errs.add(
                                FieldError.required(
                                        path.child("container").toString(),
                                        "must specify a container"));
                    } else {
                        for (String msg : NameValidation.dns1123Label(container)) {
                            errs.add(
                                    FieldError.invalid(
                                            path.child("container").toString(), container, msg));
                        }
                    }
                }
                errs.addAll(target(target, targetPath));
                boolean utilization = HpaV1Metrics.present(target, "averageUtilization");
                boolean average = HpaV1Metrics.present(target, "averageValue");
                if (!utilization && !average) {
                    errs.add(
                            FieldError.required(
                                    targetPath.child("averageUtilization").toString(),
                                    "must set either a target raw value or a target utilization"));
                }
                if (utilization && average) {
                    errs.add(
                            FieldError.forbidden(
                                    targetPath.child("averageValue").toString(),
                                    "may not set both a target raw value and a target utilization"));
                }
            }
        }
        return errs;
    }

    /** kube's {@code validateMetricIdentifier}. */
    private static List<FieldError> identifier(JsonNode id, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(id, "name");
        if (name.isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("name").toString(), "must specify a metric name"));
        } else {
            for (String msg : NameValidation.pathSegmentName(name)) {
                errs.add(FieldError.invalid(path.child("name").toString(), name, msg));
            }
        }
        return errs;
    }

    /** kube's {@code validateMetricTarget}. */
    private static List<FieldError> target(JsonNode target, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(target, "type");
        if (type.isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("type").toString(), "must specify a metric target type"));
        }
        if (!TARGET_TYPES.contains(type)) {
            errs.add(
                    FieldError.invalid(
                            path.child("type").toString(),
                            type,
                            "must be either Utilization, Value, or AverageValue"));
        }
        for (String f : List.of("value", "averageValue")) {
            JsonNode q = target.get(f);
            if (q != null && !q.isNull() && Quantity.of(q).map(v -> v.signum() != 1).orElse(true)) {
                errs.add(
                        FieldError.invalid(
                                path.child(f).toString(), Quantity.print(q), "must be positive"));
            }
        }
        JsonNode utilization = target.get("averageUtilization");
        if (utilization != null && !utilization.isNull() && utilization.asLong() < 1) {
            errs.add(
                    FieldError.invalid(
                            path.child("averageUtilization").toString(),
                            utilization.asLong(),
                            "must be greater than 0"));
        }
        return errs;
    }
}
