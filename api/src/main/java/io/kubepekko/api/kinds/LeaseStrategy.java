package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/** coordination.k8s.io Leases: a positive duration and non-negative transitions when set. */
public final class LeaseStrategy implements Strategy {

    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        if (Nodes.has(spec, "leaseDurationSeconds")
                && spec.get("leaseDurationSeconds").asLong() <= 0) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("leaseDurationSeconds").toString(),
                            spec.get("leaseDurationSeconds").asLong(),
                            "must be greater than 0"));
        }
        errs.addAll(WorkloadStrategy.nonNegative(spec, "leaseTransitions", SPEC));
        return errs;
    }
}
