package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * ResourceQuotas: standard or qualified resource names, non-negative quantities, known scopes;
 * scopes immutable.
 */
public final class ResourceQuotaStrategy implements Strategy {

    static final Set<String> STANDARD_QUOTA_RESOURCES =
            Set.of(
                    "pods",
                    "services",
                    "replicationcontrollers",
                    "resourcequotas",
                    "secrets",
                    "configmaps",
                    "persistentvolumeclaims",
                    "services.nodeports",
                    "services.loadbalancers",
                    "cpu",
                    "memory",
                    "ephemeral-storage",
                    "requests.cpu",
                    "requests.memory",
                    "requests.storage",
                    "requests.ephemeral-storage",
                    "limits.cpu",
                    "limits.memory",
                    "limits.ephemeral-storage");
    static final Set<String> SCOPES =
            Set.of(
                    "Terminating",
                    "NotTerminating",
                    "BestEffort",
                    "NotBestEffort",
                    "PriorityClass",
                    "CrossNamespacePodAffinity",
                    "VolumeAttributesClass");
    private static final Set<String> INTEGER_RESOURCES =
            Set.of(
                    "pods",
                    "services",
                    "replicationcontrollers",
                    "resourcequotas",
                    "secrets",
                    "configmaps",
                    "persistentvolumeclaims",
                    "services.nodeports",
                    "services.loadbalancers");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        Nodes.stringMap(spec.get("hard"))
                .forEach(
                        (k, v) -> {
                            FieldPath p = SPEC.child("hard").key(k);
                            List<FieldError> nameErrs = LabelValidation.labelKey(k, p);
                            errs.addAll(nameErrs);
                            if (nameErrs.isEmpty() && !k.contains("/") && !isStandard(k)) {
                                errs.add(
                                        FieldError.invalid(
                                                p.toString(),
                                                k,
                                                "must be a standard resource for quota"));
                            }
                            BigDecimal q = FieldChecks.quantity(v, p, errs);
                            if (q != null && isInteger(k) && q.stripTrailingZeros().scale() > 0) {
                                errs.add(FieldError.invalid(p.toString(), v, "must be an integer"));
                            }
                        });
        List<String> scopes = Nodes.strings(spec, "scopes");
        for (String scope : scopes) {
            if (!SCOPES.contains(scope)) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("scopes").toString(),
                                BadValue.of(spec.get("scopes")),
                                "unsupported scope"));
            }
            for (String resource : new TreeSet<>(Nodes.stringMap(spec.get("hard")).keySet())) {
                if (isStandard(resource) && !scopeValidFor(scope, resource)) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("scopes").toString(),
                                    BadValue.of(spec.get("scopes")),
                                    "unsupported scope applied to resource"));
                }
            }
        }
        Set<String> set = new HashSet<>(scopes);
        if ((set.contains("BestEffort") && set.contains("NotBestEffort"))
                || (set.contains("Terminating") && set.contains("NotTerminating"))) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("scopes").toString(),
                            BadValue.of(spec.get("scopes")),
                            "conflicting scopes"));
        }
        validateScopeSelector(spec, errs);
        return errs;
    }

    /** kube's {@code validateScopedResourceSelectorRequirement}, its paths and messages. */
    private static void validateScopeSelector(JsonNode spec, List<FieldError> errs) {
        JsonNode selector = spec.get("scopeSelector");
        if (selector == null || selector.isNull()) {
            return;
        }
        FieldPath path = SPEC.child("scopeSelector").child("matchExpressions");
        Set<String> hard = new TreeSet<>(Nodes.stringMap(spec.get("hard")).keySet());
        Set<String> scopes = new HashSet<>();
        for (JsonNode req : selector.path("matchExpressions")) {
            String scope = req.path("scopeName").asText("");
            String operator = req.path("operator").asText("");
            int values = req.path("values").size();
            if (!SCOPES.contains(scope)) {
                errs.add(
                        FieldError.invalid(
                                path.child("scopeName").toString(), scope, "unsupported scope"));
            }
            for (String resource : hard) {
                if (isStandard(resource) && !scopeValidFor(scope, resource)) {
                    errs.add(
                            FieldError.invalid(
                                    path.toString(),
                                    BadValue.of(selector),
                                    "unsupported scope applied to resource"));
                }
            }
            if (EXISTS_ONLY_SCOPES.contains(scope) && !operator.equals("Exists")) {
                errs.add(
                        FieldError.invalid(
                                path.child("operator").toString(),
                                operator,
                                "must be 'Exist' only operator when scope is any of"
                                        + " ResourceQuotaScopeTerminating,"
                                        + " ResourceQuotaScopeNotTerminating,"
                                        + " ResourceQuotaScopeBestEffort and"
                                        + " ResourceQuotaScopeNotBestEffort"));
            }
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values == 0) {
                        errs.add(
                                FieldError.required(
                                        path.child("values").toString(),
                                        "must be at least one value when `operator` is 'In' or"
                                                + " 'NotIn' for scope selector"));
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (values != 0) {
                        errs.add(
                                FieldError.invalid(
                                        path.child("values").toString(),
                                        BadValue.of(req.get("values")),
                                        "must be no value when `operator` is 'Exist' or"
                                                + " 'DoesNotExist' for scope selector"));
                    }
                }
                default ->
                        errs.add(
                                FieldError.invalid(
                                        path.child("operator").toString(),
                                        operator,
                                        "not a valid selector operator"));
            }
            scopes.add(scope);
        }
        if ((scopes.contains("BestEffort") && scopes.contains("NotBestEffort"))
                || (scopes.contains("Terminating") && scopes.contains("NotTerminating"))) {
            // kube shows spec.scopes here, not the selector.
            errs.add(
                    FieldError.invalid(
                            path.toString(),
                            BadValue.of(spec.get("scopes")),
                            "conflicting scopes"));
        }
    }

    private static final Set<String> EXISTS_ONLY_SCOPES =
            Set.of("Terminating", "NotTerminating", "BestEffort", "NotBestEffort");

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        Set<String> now = new HashSet<>(Nodes.strings(obj.path("spec"), "scopes"));
        Set<String> before = new HashSet<>(Nodes.strings(old.path("spec"), "scopes"));
        if (!now.equals(before)) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("scopes").toString(),
                            BadValue.of(obj.path("spec").get("scopes")),
                            "field is immutable"));
        }
        return errs;
    }

    /**
     * Usage is written by the quota controller through {@code /status}; a new quota starts empty.
     */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode();
    }

    private static boolean isStandard(String name) {
        return STANDARD_QUOTA_RESOURCES.contains(name)
                || name.startsWith("hugepages-")
                || name.startsWith("requests.hugepages-");
    }

    /**
     * kube's {@code IsResourceQuotaScopeValidForResource}: the pod scopes limit pods and their cpu
     * and memory; BestEffort only pods, which have none.
     */
    private static boolean scopeValidFor(String scope, String resource) {
        return switch (scope) {
            case "Terminating",
                    "NotTerminating",
                    "NotBestEffort",
                    "PriorityClass",
                    "CrossNamespacePodAffinity" ->
                    POD_COMPUTE_RESOURCES.contains(resource);
            case "BestEffort" -> resource.equals("pods");
            default -> true;
        };
    }

    private static final Set<String> POD_COMPUTE_RESOURCES =
            Set.of(
                    "pods",
                    "cpu",
                    "memory",
                    "limits.cpu",
                    "limits.memory",
                    "requests.cpu",
                    "requests.memory");

    private static boolean isInteger(String name) {
        return INTEGER_RESOURCES.contains(name) || name.startsWith("count/");
    }
}
