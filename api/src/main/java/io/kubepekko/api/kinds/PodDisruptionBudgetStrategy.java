package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * policy/v1 PodDisruptionBudgets: one of minAvailable/maxUnavailable (int or percent up to 100%), a
 * valid selector.
 */
public final class PodDisruptionBudgetStrategy implements Strategy {

    static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        if (Nodes.has(spec, "minAvailable") && Nodes.has(spec, "maxUnavailable")) {
            errs.add(
                    FieldError.invalid(
                            SPEC.toString(),
                            BadValue.of(spec),
                            "minAvailable and maxUnavailable cannot be both set"));
        }
        for (String f : new String[] {"minAvailable", "maxUnavailable"}) {
            JsonNode v = spec.path(f);
            errs.addAll(WorkloadSpecs.intOrPercent(v, SPEC.child(f)));
            if (v.isTextual() && WorkloadSpecs.value(v) > 100) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child(f).toString(),
                                v.asText(),
                                "must not be greater than 100%"));
            }
        }
        errs.addAll(LabelValidation.selector(spec.get("selector"), SPEC.child("selector")));
        String policy = Nodes.text(spec, "unhealthyPodEvictionPolicy");
        if (!policy.isEmpty() && !EVICTION_POLICIES.contains(policy)) {
            errs.add(
                    FieldError.notSupported(
                            SPEC.child("unhealthyPodEvictionPolicy").toString(),
                            policy,
                            EVICTION_POLICIES));
        }
        return errs;
    }

    /** The empty status as it serializes: its four counters are not omitted when zero. */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode()
                .put("disruptionsAllowed", 0)
                .put("currentHealthy", 0)
                .put("desiredHealthy", 0)
                .put("expectedPods", 0);
    }
}
