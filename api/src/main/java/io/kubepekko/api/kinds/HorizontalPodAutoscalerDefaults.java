package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * autoscaling/v2's defaults ({@code pkg/apis/autoscaling/v2/defaults.go}): {@code minReplicas} 1,
 * the 80% CPU utilization target when no metric is given, and, for a behavior that is set, every
 * unset part of both directions' rules from the controller's historic values (scale up: no
 * stabilization, the larger of 4 pods or 100% per 15 s; scale down: 100% per 15 s, the window left
 * to the controller's flag). Spec fields are then kept in the Go struct's order.
 */
final class HorizontalPodAutoscalerDefaults {
    private HorizontalPodAutoscalerDefaults() {}

    private static final List<String> SPEC_ORDER =
            List.of("scaleTargetRef", "minReplicas", "maxReplicas", "metrics", "behavior");

    private static final List<String> RULES_ORDER =
            List.of("stabilizationWindowSeconds", "selectPolicy", "policies", "tolerance");

    static void apply(ObjectNode obj) {
        JsonNode s = obj.get("spec");
        if (!(s instanceof ObjectNode spec)) {
            return;
        }
        if (!HpaV1Metrics.present(spec, "minReplicas")) {
            spec.put("minReplicas", 1);
        }
        JsonNode metrics = spec.get("metrics");
        if (metrics == null || metrics.isNull() || (metrics.isArray() && metrics.isEmpty())) {
            ArrayNode list = spec.putArray("metrics");
            ObjectNode m = list.addObject();
            m.put("type", "Resource");
            ObjectNode resource = m.putObject("resource");
            resource.put("name", "cpu");
            ObjectNode target = resource.putObject("target");
            target.put("type", "Utilization");
            target.put("averageUtilization", AutoscalingV1Conversion.DEFAULT_CPU_UTILIZATION);
        }
        if (spec.get("behavior") instanceof ObjectNode behavior) {
            behavior.set("scaleUp", rules(behavior.get("scaleUp"), scaleUpDefaults()));
            behavior.set("scaleDown", rules(behavior.get("scaleDown"), scaleDownDefaults()));
            reorder(behavior, List.of("scaleUp", "scaleDown"));
        }
        reorder(spec, SPEC_ORDER);
    }

    /** kube's {@code copyHPAScalingRules}: the given rules' set fields over the defaults. */
    private static ObjectNode rules(JsonNode given, ObjectNode defaults) {
        if (given instanceof ObjectNode from) {
            for (String f : RULES_ORDER) {
                JsonNode v = from.get(f);
                if (v != null && !v.isNull()) {
                    defaults.set(f, v);
                }
            }
            for (Map.Entry<String, JsonNode> e : from.properties()) {
                if (!RULES_ORDER.contains(e.getKey())) {
                    defaults.set(e.getKey(), e.getValue());
                }
            }
        }
        reorder(defaults, RULES_ORDER);
        return defaults;
    }

    private static ObjectNode scaleUpDefaults() {
        ObjectNode r = Nodes.F.objectNode();
        r.put("stabilizationWindowSeconds", 0);
        r.put("selectPolicy", "Max");
        ArrayNode policies = r.putArray("policies");
        policies.addObject().put("type", "Pods").put("value", 4).put("periodSeconds", 15);
        policies.addObject().put("type", "Percent").put("value", 100).put("periodSeconds", 15);
        return r;
    }

    private static ObjectNode scaleDownDefaults() {
        ObjectNode r = Nodes.F.objectNode();
        r.put("selectPolicy", "Max");
        r.putArray("policies")
                .addObject()
                .put("type", "Percent")
                .put("value", 100)
                .put("periodSeconds", 15);
        return r;
    }

    /** {@code node}'s fields in {@code order}, then the others as they were. */
    static void reorder(ObjectNode node, List<String> order) {
        ObjectNode copy = node.deepCopy();
        node.removeAll();
        for (String f : order) {
            JsonNode v = copy.get(f);
            if (v != null) {
                node.set(f, v);
            }
        }
        for (Map.Entry<String, JsonNode> e : copy.properties()) {
            if (!order.contains(e.getKey())) {
                node.set(e.getKey(), e.getValue());
            }
        }
    }
}
