package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * HorizontalPodAutoscalers, stored as autoscaling/v2 whichever version wrote them (kube's {@code
 * pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go}): v2's defaults ({@link
 * HorizontalPodAutoscalerDefaults}); a create starts with the empty status and an update keeps the
 * stored one, while a status write keeps the spec (the generic status handling); validation of the
 * spec with kube's options ({@link HorizontalPodAutoscalerValidation}). The annotations other
 * versions carry their extra fields in never reach storage: a write through autoscaling/v2 drops
 * them as kube's conversion to the internal type does.
 */
public final class HorizontalPodAutoscalerStrategy implements Strategy {

    @Override
    public void applyDefaults(ObjectNode obj) {
        HpaAnnotations.drop(obj);
        HorizontalPodAutoscalerDefaults.apply(obj);
    }

    /** The empty v2 status as Go writes it: a zero currentReplicas is omitted, desired is not. */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode().put("desiredReplicas", 0);
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        return HorizontalPodAutoscalerValidation.spec(
                spec, HorizontalPodAutoscalerValidation.options(spec, null));
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs =
                new ArrayList<>(
                        HorizontalPodAutoscalerValidation.spec(
                                spec, HorizontalPodAutoscalerValidation.options(spec, old)));
        errs.addAll(HorizontalPodAutoscalerValidation.status(obj.path("status")));
        return errs;
    }
}
