package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.List;

/**
 * LimitRanges: kube's defaults of Container items ({@link LimitRangeDefaults}) and its {@code
 * ValidateLimitRange} ({@link LimitRangeValidation}), on create and update alike.
 */
public final class LimitRangeStrategy implements Strategy {

    @Override
    public void applyDefaults(ObjectNode obj) {
        LimitRangeDefaults.apply(obj);
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode limits = obj.path("spec").path("limits");
        return LimitRangeValidation.validate(limits, FieldPath.of("spec", "limits"));
    }
}
