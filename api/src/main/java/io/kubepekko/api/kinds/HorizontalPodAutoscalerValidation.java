package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's HorizontalPodAutoscaler spec and status validation ({@code
 * pkg/apis/autoscaling/validation/validation.go}, {@code validateHorizontalPodAutoscalerSpec} with
 * the options the registry strategy picks), on the stored autoscaling/v2 form whichever version
 * wrote it: replica bounds, the scale target, the behavior's rules; each metric is checked by
 * {@link HpaMetricValidation}. The HPAScaleToZero gate is alpha and off, so {@code minReplicas} may
 * be 0 only when the stored object already has 0.
 */
final class HorizontalPodAutoscalerValidation {
    private HorizontalPodAutoscalerValidation() {}

    private static final FieldPath SPEC = FieldPath.of("spec");
    private static final int MAX_PERIOD_SECONDS = 1800;
    private static final int MAX_STABILIZATION_WINDOW_SECONDS = 3600;
    private static final List<String> SELECT_POLICIES = List.of("Disabled", "Max", "Min");
    private static final List<String> POLICY_TYPES = List.of("Percent", "Pods");

    /**
     * How lenient one write's checks are (kube's {@code
     * HorizontalPodAutoscalerSpecValidationOptions} and {@code
     * CrossVersionObjectReferenceValidationOptions} of the scale target and of Object metrics'
     * described objects).
     */
    record Options(
            int minReplicasLowerBound,
            boolean targetAllowsEmptyGroup,
            boolean targetAllowsInvalidVersion,
            boolean objectAllowsInvalidVersion) {}

    /**
     * kube's {@code validationOptionsForHorizontalPodAutoscaler}; {@code old} is null on create.
     */
    static Options options(JsonNode spec, JsonNode old) {
        JsonNode oldSpec = old == null ? null : old.path("spec");
        int lowerBound =
                oldSpec != null
                                && oldSpec.path("minReplicas").isNumber()
                                && oldSpec.path("minReplicas").asLong() == 0
                        ? 0
                        : 1;
        JsonNode ref = spec.path("scaleTargetRef");
        boolean allowInvalid = false;
        boolean allowEmpty = false;
        if (oldSpec != null
                && Nodes.text(oldSpec.path("scaleTargetRef"), "apiVersion")
                        .equals(Nodes.text(ref, "apiVersion"))
                && Nodes.text(oldSpec.path("scaleTargetRef"), "kind")
                        .equals(Nodes.text(ref, "kind"))) {
            // An update that keeps the kind and apiVersion does not check the apiVersion again.
            allowInvalid = true;
        } else if (Nodes.text(ref, "kind").equals("ReplicationController")) {
            // The one scalable kind of the core group has no group to name.
            allowEmpty = true;
        }
        boolean objectsInvalid = false;
        if (oldSpec != null) {
            for (JsonNode m : Nodes.items(oldSpec, "metrics")) {
                if ("Object".equals(Nodes.text(m, "type"))
                        && HpaV1Metrics.present(m, "object")
                        && apiVersionError(
                                        Nodes.text(
                                                m.get("object").path("describedObject"),
                                                "apiVersion"),
                                        true)
                                != null) {
                    // The stored metrics are already invalid.
                    objectsInvalid = true;
                    break;
                }
            }
        }
        return new Options(lowerBound, allowEmpty, allowInvalid, objectsInvalid);
    }

    static List<FieldError> spec(JsonNode spec, Options opts) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode min = spec.get("minReplicas");
        boolean hasMin = min != null && min.isNumber();
        long max = spec.path("maxReplicas").asLong(0);
        if (hasMin && min.asLong() < opts.minReplicasLowerBound()) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("minReplicas").toString(),
                            min.asLong(),
                            "must be greater than or equal to " + opts.minReplicasLowerBound()));
        }
        if (max < 1) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("maxReplicas").toString(), max, "must be greater than 0"));
        }
        if (hasMin && max < min.asLong()) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("maxReplicas").toString(),
                            max,
                            "must be greater than or equal to `minReplicas`"));
        }
        errs.addAll(
                crossVersionReference(
                        spec.path("scaleTargetRef"),
                        SPEC.child("scaleTargetRef"),
                        opts.targetAllowsEmptyGroup(),
                        opts.targetAllowsInvalidVersion()));
        errs.addAll(
                HpaMetricValidation.metrics(
                        Nodes.items(spec, "metrics"),
                        SPEC.child("metrics"),
                        hasMin ? min.asLong() : null,
                        opts.objectAllowsInvalidVersion()));
        JsonNode behavior = spec.get("behavior");
        if (behavior != null && behavior.isObject()) {
            FieldPath path = SPEC.child("behavior");
            errs.addAll(rules(behavior.get("scaleUp"), path.child("scaleUp")));
            errs.addAll(rules(behavior.get("scaleDown"), path.child("scaleDown")));
        }
        return errs;
    }

    /** kube's {@code ValidateHorizontalPodAutoscalerStatusUpdate}, past metadata. */
    static List<FieldError> status(JsonNode status) {
        List<FieldError> errs = new ArrayList<>();
        for (String f : List.of("currentReplicas", "desiredReplicas")) {
            long v = status.path(f).asLong(0);
            if (v < 0) {
                errs.add(
                        FieldError.invalid(
                                FieldPath.of("status", f).toString(),
                                v,
                                "must be greater than or equal to 0"));
            }
        }
        return errs;
    }

    /** kube's {@code ValidateCrossVersionObjectReference} with its apiVersion options. */
    static List<FieldError> crossVersionReference(
            JsonNode ref, FieldPath path, boolean allowEmptyGroup, boolean allowInvalidVersion) {
        List<FieldError> errs = new ArrayList<>();
        for (String f : List.of("kind", "name")) {
            String v = Nodes.text(ref, f);
            if (v.isEmpty()) {
                errs.add(FieldError.required(path.child(f).toString(), ""));
            } else {
                for (String msg : NameValidation.pathSegmentName(v)) {
                    errs.add(FieldError.invalid(path.child(f).toString(), v, msg));
                }
            }
        }
        if (!allowInvalidVersion) {
            String apiVersion = Nodes.text(ref, "apiVersion");
            String msg = apiVersionError(apiVersion, allowEmptyGroup);
            if (msg != null) {
                errs.add(FieldError.invalid(path.child("apiVersion").toString(), apiVersion, msg));
            }
        }
        return errs;
    }

    /**
     * kube's {@code ValidateAPIVersion}: why an apiVersion does not parse as a group version
     * ({@code schema.ParseGroupVersion}) or names no group where one is needed; null when fine.
     */
    static String apiVersionError(String apiVersion, boolean allowEmptyGroup) {
        String group = "";
        if (!apiVersion.isEmpty() && !apiVersion.equals("/")) {
            int slashes = apiVersion.length() - apiVersion.replace("/", "").length();
            if (slashes > 1) {
                return "unexpected GroupVersion string: " + apiVersion;
            }
            if (slashes == 1) {
                group = apiVersion.substring(0, apiVersion.indexOf('/'));
            }
        }
        if (!allowEmptyGroup && group.isEmpty()) {
            return "apiVersion must specify API group";
        }
        return null;
    }

    /** kube's {@code validateScalingRules} of one direction. */
    private static List<FieldError> rules(JsonNode rules, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (rules == null || !rules.isObject()) {
            return errs;
        }
        JsonNode window = rules.get("stabilizationWindowSeconds");
        if (window != null && window.isNumber()) {
            FieldPath p = path.child("stabilizationWindowSeconds");
            if (window.asLong() < 0) {
                errs.add(
                        FieldError.invalid(
                                p.toString(),
                                window.asLong(),
                                "must be greater than or equal to zero"));
            }
            if (window.asLong() > MAX_STABILIZATION_WINDOW_SECONDS) {
                errs.add(
                        FieldError.invalid(
                                p.toString(),
                                window.asLong(),
                                "must be less than or equal to "
                                        + MAX_STABILIZATION_WINDOW_SECONDS));
            }
        }
        JsonNode select = rules.get("selectPolicy");
        if (select != null && !select.isNull() && !SELECT_POLICIES.contains(select.asText())) {
            errs.add(
                    FieldError.notSupported(
                            path.child("selectPolicy").toString(),
                            select.asText(),
                            SELECT_POLICIES));
        }
        FieldPath policiesPath = path.child("policies");
        List<JsonNode> policies = Nodes.items(rules, "policies");
        if (policies.isEmpty()) {
            errs.add(
                    FieldError.required(
                            policiesPath.toString(), "must specify at least one Policy"));
        }
        for (int i = 0; i < policies.size(); i++) {
            errs.addAll(policy(policies.get(i), policiesPath.index(i)));
        }
        JsonNode tolerance = rules.get("tolerance");
        if (tolerance != null && !tolerance.isNull()) {
            if (Quantity.of(tolerance).map(q -> q.signum() < 0).orElse(false)) {
                errs.add(
                        FieldError.invalid(
                                path.child("tolerance").toString(),
                                Quantity.print(tolerance),
                                "must be greater than or equal to 0"));
            }
        }
        return errs;
    }

    private static List<FieldError> policy(JsonNode policy, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(policy, "type");
        if (!POLICY_TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path.child("type").toString(), type, POLICY_TYPES));
        }
        long value = policy.path("value").asLong(0);
        if (value <= 0) {
            errs.add(
                    FieldError.invalid(
                            path.child("value").toString(), value, "must be greater than zero"));
        }
        long period = policy.path("periodSeconds").asLong(0);
        if (period <= 0) {
            errs.add(
                    FieldError.invalid(
                            path.child("periodSeconds").toString(),
                            period,
                            "must be greater than zero"));
        }
        if (period > MAX_PERIOD_SECONDS) {
            errs.add(
                    FieldError.invalid(
                            path.child("periodSeconds").toString(),
                            period,
                            "must be less than or equal to " + MAX_PERIOD_SECONDS));
        }
        return errs;
    }
}
