package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;

/**
 * An autoscaling/v2 {@code behavior} in autoscaling/v1's behavior annotation. kube marshals its
 * internal {@code HorizontalPodAutoscalerBehavior} there, a type without json tags: the keys are
 * the Go field names ({@code ScaleUp}, {@code StabilizationWindowSeconds}, ...), every field is
 * written, unset pointers and slices as {@code null}. Reading it back matches keys without regard
 * to case, as Go's decoder does, and a behavior with neither direction is no behavior.
 */
final class HpaBehaviorAnnotation {
    private HpaBehaviorAnnotation() {}

    /** The annotation's JSON for a v2 behavior. */
    static ObjectNode toGo(JsonNode behavior) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("ScaleUp", rulesToGo(behavior.get("scaleUp")));
        out.set("ScaleDown", rulesToGo(behavior.get("scaleDown")));
        return out;
    }

    private static JsonNode rulesToGo(JsonNode rules) {
        if (rules == null || rules.isNull()) {
            return Nodes.F.nullNode();
        }
        ObjectNode out = Nodes.F.objectNode();
        out.set("StabilizationWindowSeconds", orNull(rules.get("stabilizationWindowSeconds")));
        out.set("SelectPolicy", orNull(rules.get("selectPolicy")));
        JsonNode policies = rules.get("policies");
        if (policies == null || !policies.isArray()) {
            out.putNull("Policies");
        } else {
            ArrayNode list = out.putArray("Policies");
            for (JsonNode p : policies) {
                ObjectNode policy = list.addObject();
                policy.set("Type", orDefault(p.get("type"), Nodes.F.textNode("")));
                policy.set("Value", orDefault(p.get("value"), Nodes.F.numberNode(0)));
                policy.set(
                        "PeriodSeconds", orDefault(p.get("periodSeconds"), Nodes.F.numberNode(0)));
            }
        }
        out.set("Tolerance", orNull(rules.get("tolerance")));
        return out;
    }

    /**
     * The v2 behavior the annotation holds; empty when it is not a JSON object or holds neither
     * direction (kube moves only well-formed, non-zero data to the field).
     */
    static Optional<ObjectNode> fromGo(JsonNode annotation) {
        if (annotation == null || !annotation.isObject()) {
            return Optional.empty();
        }
        ObjectNode out = Nodes.F.objectNode();
        rulesFromGo(field(annotation, "ScaleUp")).ifPresent(r -> out.set("scaleUp", r));
        rulesFromGo(field(annotation, "ScaleDown")).ifPresent(r -> out.set("scaleDown", r));
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    private static Optional<ObjectNode> rulesFromGo(JsonNode rules) {
        if (rules == null || !rules.isObject()) {
            return Optional.empty();
        }
        ObjectNode out = Nodes.F.objectNode();
        copy(out, "stabilizationWindowSeconds", field(rules, "StabilizationWindowSeconds"));
        copy(out, "selectPolicy", field(rules, "SelectPolicy"));
        JsonNode policies = field(rules, "Policies");
        if (policies != null && policies.isArray()) {
            ArrayNode list = out.putArray("policies");
            for (JsonNode p : policies) {
                ObjectNode policy = list.addObject();
                policy.set("type", orDefault(field(p, "Type"), Nodes.F.textNode("")));
                policy.set("value", orDefault(field(p, "Value"), Nodes.F.numberNode(0)));
                policy.set(
                        "periodSeconds",
                        orDefault(field(p, "PeriodSeconds"), Nodes.F.numberNode(0)));
            }
        }
        copy(out, "tolerance", field(rules, "Tolerance"));
        return Optional.of(out);
    }

    /** A field by its Go name: the exact key, else the first that differs only in case. */
    private static JsonNode field(JsonNode obj, String name) {
        if (obj == null || !obj.isObject()) {
            return null;
        }
        JsonNode exact = obj.get(name);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static void copy(ObjectNode out, String name, JsonNode value) {
        if (value != null && !value.isNull()) {
            out.set(name, value);
        }
    }

    private static JsonNode orNull(JsonNode v) {
        return v == null ? Nodes.F.nullNode() : v;
    }

    private static JsonNode orDefault(JsonNode v, JsonNode zero) {
        return v == null || v.isNull() ? zero : v;
    }
}
