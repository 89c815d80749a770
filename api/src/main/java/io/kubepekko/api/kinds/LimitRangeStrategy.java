package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * LimitRanges: limit types (Pod, Container, PersistentVolumeClaim or qualified), unique, with valid
 * quantities.
 */
public final class LimitRangeStrategy implements Strategy {

    static final Set<String> STANDARD_TYPES = Set.of("Pod", "Container", "PersistentVolumeClaim");
    private static final String[] QUANTITY_MAPS = {
        "max", "min", "default", "defaultRequest", "maxLimitRequestRatio"
    };

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> types = new HashSet<>();
        List<JsonNode> limits = Nodes.items(obj.path("spec"), "limits");
        for (int i = 0; i < limits.size(); i++) {
            JsonNode limit = limits.get(i);
            FieldPath idx = FieldPath.of("spec", "limits").index(i);
            String type = Nodes.text(limit, "type");
            List<FieldError> typeErrs = LabelValidation.labelKey(type, idx.child("type"));
            errs.addAll(typeErrs);
            if (typeErrs.isEmpty() && !type.contains("/") && !STANDARD_TYPES.contains(type)) {
                errs.add(
                        FieldError.invalid(
                                idx.child("type").toString(),
                                type,
                                "must be a standard limit type or fully qualified"));
            }
            if (!types.add(type)) {
                errs.add(FieldError.duplicate(idx.child("type").toString(), type));
            }
            if (type.equals("Pod")) {
                for (String f : new String[] {"default", "defaultRequest"}) {
                    if (limit.path(f).size() > 0) {
                        errs.add(
                                FieldError.forbidden(
                                        idx.child(f).toString(),
                                        "may not be specified when `type` is 'Pod'"));
                    }
                }
            }
            if (type.equals("PersistentVolumeClaim")
                    && !limit.path("min").has("storage")
                    && !limit.path("max").has("storage")) {
                errs.add(
                        FieldError.required(
                                idx.child("limits").toString(),
                                "either minimum or maximum storage value is required, but neither was provided"));
            }
            for (String f : QUANTITY_MAPS) {
                Nodes.stringMap(limit.get(f))
                        .forEach((k, v) -> FieldChecks.quantity(v, idx.child(f).key(k), errs));
            }
        }
        return errs;
    }
}
