package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * scheduling.k8s.io PriorityClasses: user values up to one billion, "system-" names reserved for
 * the two built-in classes, and an immutable value and preemption policy. A missing value is 0, as
 * in Kubernetes (the field is not a pointer, so the server cannot tell it was omitted).
 */
public final class PriorityClassStrategy implements Strategy {

    static final long HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000L;
    static final List<String> PREEMPTION_POLICIES = List.of("PreemptLowerPriority", "Never");
    private static final Map<String, Long> SYSTEM_CLASSES =
            Map.of(
                    "system-node-critical",
                    2_000_001_000L,
                    "system-cluster-critical",
                    2_000_000_000L);

    @Override
    public void applyDefaults(ObjectNode obj) {
        Nodes.defaultText(obj, "preemptionPolicy", "PreemptLowerPriority");
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(obj.path("metadata"), "name");
        long value = obj.path("value").asLong(0);
        if (name.startsWith("system-")) {
            Long expected = SYSTEM_CLASSES.get(name);
            if (expected == null || expected != value) {
                String why =
                        expected == null
                                ? name + " is not a known system priority class"
                                : "value of " + name + " PriorityClass must be " + expected;
                errs.add(
                        FieldError.forbidden(
                                "metadata.name",
                                "priority class names with 'system-' prefix are reserved for system use only. error: "
                                        + why));
            }
        } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
            errs.add(
                    FieldError.forbidden(
                            "value",
                            "maximum allowed value of a user defined priority is "
                                    + HIGHEST_USER_DEFINABLE_PRIORITY));
        }
        String policy = Nodes.text(obj, "preemptionPolicy");
        if (!policy.isEmpty() && !PREEMPTION_POLICIES.contains(policy)) {
            errs.add(FieldError.notSupported("preemptionPolicy", policy, PREEMPTION_POLICIES));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        if (obj.path("value").asLong(0) != old.path("value").asLong(0)) {
            errs.add(FieldError.forbidden("value", "may not be changed in an update."));
        }
        String policy = Nodes.text(obj, "preemptionPolicy");
        if (!policy.equals(Nodes.text(old, "preemptionPolicy"))) {
            errs.add(FieldError.invalid("preemptionPolicy", policy, "field is immutable"));
        }
        return errs;
    }
}
