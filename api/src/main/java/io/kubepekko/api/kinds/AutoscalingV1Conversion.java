package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.VersionConversion;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * autoscaling/v1 HorizontalPodAutoscalers and their stored form, autoscaling/v2 (kube's {@code
 * Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler} and back, through the
 * internal type both share). v1 holds one target, {@code targetCPUUtilizationPercentage}, the first
 * CPU Resource metric's utilization; everything else v2 has travels in annotations ({@link
 * HpaAnnotations}): the other metrics, every current metric, the behavior and the conditions. Going
 * back, the annotations are read (malformed ones are ignored, as kube ignores them) and dropped,
 * the CPU target goes after the annotated metrics, and a v1 object with no metric at all gets
 * kube's implicit 80% CPU target.
 *
 * <p>Fields come out in the Go structs' order, with Go's rules for the fields a struct always
 * writes. A conversion moves annotations, so unlike Event's it touches {@code metadata}: never the
 * given object's, always a copy.
 */
public final class AutoscalingV1Conversion implements VersionConversion {

    public static final AutoscalingV1Conversion INSTANCE = new AutoscalingV1Conversion();

    /** kube's {@code autoscaling.DefaultCPUUtilization}. */
    static final int DEFAULT_CPU_UTILIZATION = 80;

    private AutoscalingV1Conversion() {}

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        JsonNode spec = stored.path("spec");
        JsonNode status = stored.path("status");
        List<JsonNode> metrics = Nodes.items(spec, "metrics");
        List<JsonNode> currentMetrics = Nodes.items(status, "currentMetrics");
        List<JsonNode> conditions = Nodes.items(status, "conditions");

        Map<String, String> added = new TreeMap<>();
        ArrayNode other = Nodes.F.arrayNode();
        for (JsonNode m : metrics) {
            if (!isCpuUtilization(m)) {
                other.add(HpaV1Metrics.specToV1(m));
            }
        }
        if (!other.isEmpty()) {
            added.put(HpaAnnotations.METRICS, HpaAnnotations.goJson(other));
        }
        if (!currentMetrics.isEmpty()) {
            ArrayNode statuses = Nodes.F.arrayNode();
            currentMetrics.forEach(m -> statuses.add(HpaV1Metrics.statusToV1(m)));
            added.put(HpaAnnotations.CURRENT_METRICS, HpaAnnotations.goJson(statuses));
        }
        if (HpaV1Metrics.present(spec, "behavior")) {
            added.put(
                    HpaAnnotations.BEHAVIOR,
                    HpaAnnotations.goJson(HpaBehaviorAnnotation.toGo(spec.get("behavior"))));
        }
        if (!conditions.isEmpty()) {
            ArrayNode list = Nodes.F.arrayNode();
            conditions.forEach(c -> list.add(conditionToV1(c)));
            added.put(HpaAnnotations.CONDITIONS, HpaAnnotations.goJson(list));
        }

        ObjectNode out = Nodes.F.objectNode();
        for (Map.Entry<String, JsonNode> e : stored.properties()) {
            switch (e.getKey()) {
                case "metadata" -> out.set("metadata", withAnnotations(e.getValue(), added));
                case "spec" -> out.set("spec", specToV1(spec, metrics));
                case "status" -> out.set("status", statusToV1(status, currentMetrics));
                default -> out.set(e.getKey(), e.getValue());
            }
        }
        if (!out.has("metadata") && !added.isEmpty()) {
            out.set("metadata", withAnnotations(Nodes.F.objectNode(), added));
        }
        if (!out.has("spec")) {
            out.set("spec", specToV1(spec, metrics));
        }
        if (!out.has("status")) {
            out.set("status", statusToV1(status, currentMetrics));
        }
        return out;
    }

    @Override
    public ObjectNode toStorage(ObjectNode served) {
        JsonNode spec = served.path("spec");
        JsonNode status = served.path("status");
        ObjectNode out = Nodes.F.objectNode();
        for (Map.Entry<String, JsonNode> e : served.properties()) {
            switch (e.getKey()) {
                case "metadata" ->
                        out.set("metadata", HpaAnnotations.withoutRoundTrip(e.getValue()));
                case "spec" -> out.set("spec", specFromV1(served, spec));
                case "status" -> out.set("status", statusFromV1(served, status));
                default -> out.set(e.getKey(), e.getValue());
            }
        }
        if (!out.has("spec")) {
            out.set("spec", specFromV1(served, spec));
        }
        if (!out.has("status")) {
            out.set("status", statusFromV1(served, status));
        }
        return out;
    }

    /** A CPU Resource metric targeting a utilization: the one v1 holds in its own field. */
    private static boolean isCpuUtilization(JsonNode m) {
        return isCpuResource(m)
                && HpaV1Metrics.present(m.path("resource").path("target"), "averageUtilization");
    }

    private static boolean isCpuResource(JsonNode m) {
        return "Resource".equals(Nodes.text(m, "type"))
                && HpaV1Metrics.present(m, "resource")
                && "cpu".equals(Nodes.text(m.get("resource"), "name"));
    }

    private static ObjectNode specToV1(JsonNode spec, List<JsonNode> metrics) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("scaleTargetRef", HpaV1Metrics.ref(spec.path("scaleTargetRef")));
        copy(out, "minReplicas", spec);
        out.set("maxReplicas", orZero(spec.get("maxReplicas")));
        // The first CPU Resource metric decides, whether or not it targets a utilization.
        for (JsonNode m : metrics) {
            if (isCpuResource(m)) {
                JsonNode utilization = m.path("resource").path("target").get("averageUtilization");
                if (utilization != null && !utilization.isNull()) {
                    out.set("targetCPUUtilizationPercentage", utilization);
                }
                break;
            }
        }
        return out;
    }

    private static ObjectNode statusToV1(JsonNode status, List<JsonNode> currentMetrics) {
        ObjectNode out = Nodes.F.objectNode();
        copy(out, "observedGeneration", status);
        copy(out, "lastScaleTime", status);
        out.set("currentReplicas", orZero(status.get("currentReplicas")));
        out.set("desiredReplicas", orZero(status.get("desiredReplicas")));
        // kube's loop has no break: the last CPU utilization wins.
        for (JsonNode m : currentMetrics) {
            if (isCpuResource(m)) {
                JsonNode u = m.path("resource").path("current").get("averageUtilization");
                if (u != null && !u.isNull()) {
                    out.set("currentCPUUtilizationPercentage", u);
                }
            }
        }
        return out;
    }

    private static ObjectNode specFromV1(JsonNode served, JsonNode spec) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("scaleTargetRef", HpaV1Metrics.ref(spec.path("scaleTargetRef")));
        copy(out, "minReplicas", spec);
        out.set("maxReplicas", orZero(spec.get("maxReplicas")));
        ArrayNode metrics = Nodes.F.arrayNode();
        annotation(served, HpaAnnotations.METRICS)
                .filter(JsonNode::isArray)
                .ifPresent(list -> list.forEach(m -> metrics.add(HpaV1Metrics.specFromV1(m))));
        // The CPU target goes after the annotated metrics.
        JsonNode cpu = spec.get("targetCPUUtilizationPercentage");
        if (cpu != null && !cpu.isNull()) {
            metrics.add(cpuUtilizationMetric(cpu));
        }
        if (metrics.isEmpty()) {
            // autoscaling/v1's implicit target, made explicit.
            metrics.add(cpuUtilizationMetric(Nodes.F.numberNode(DEFAULT_CPU_UTILIZATION)));
        }
        out.set("metrics", metrics);
        annotation(served, HpaAnnotations.BEHAVIOR)
                .flatMap(HpaBehaviorAnnotation::fromGo)
                .ifPresent(b -> out.set("behavior", b));
        return out;
    }

    private static ObjectNode cpuUtilizationMetric(JsonNode utilization) {
        ObjectNode m = Nodes.F.objectNode();
        m.put("type", "Resource");
        ObjectNode resource = m.putObject("resource");
        resource.put("name", "cpu");
        ObjectNode target = resource.putObject("target");
        target.put("type", "Utilization");
        target.set("averageUtilization", utilization);
        return m;
    }

    private static ObjectNode statusFromV1(JsonNode served, JsonNode status) {
        ObjectNode out = Nodes.F.objectNode();
        copy(out, "observedGeneration", status);
        copy(out, "lastScaleTime", status);
        // v2 omits a zero currentReplicas; desiredReplicas is always written.
        JsonNode current = status.get("currentReplicas");
        if (current != null
                && !current.isNull()
                && !(current.isNumber() && current.asLong() == 0)) {
            out.set("currentReplicas", current);
        }
        out.set("desiredReplicas", orZero(status.get("desiredReplicas")));
        Optional<JsonNode> annotated =
                annotation(served, HpaAnnotations.CURRENT_METRICS).filter(JsonNode::isArray);
        if (annotated.isPresent()) {
            // The annotation has more than the CPU percentage: it wins.
            ArrayNode list = out.putArray("currentMetrics");
            annotated.get().forEach(m -> list.add(HpaV1Metrics.statusFromV1(m)));
        } else if (HpaV1Metrics.present(status, "currentCPUUtilizationPercentage")) {
            ObjectNode m = out.putArray("currentMetrics").addObject();
            m.put("type", "Resource");
            ObjectNode resource = m.putObject("resource");
            resource.put("name", "cpu");
            resource.putObject("current")
                    .set("averageUtilization", status.get("currentCPUUtilizationPercentage"));
        }
        annotation(served, HpaAnnotations.CONDITIONS)
                .filter(JsonNode::isArray)
                .ifPresent(
                        list -> {
                            ArrayNode conditions = out.putArray("conditions");
                            list.forEach(c -> conditions.add(conditionFromV1(c)));
                        });
        return out;
    }

    /** A condition as Go writes v1's: a zero lastTransitionTime is {@code null}. */
    private static ObjectNode conditionToV1(JsonNode c) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", orEmpty(c.get("type")));
        out.set("status", orEmpty(c.get("status")));
        JsonNode time = c.get("lastTransitionTime");
        out.set("lastTransitionTime", time == null ? Nodes.F.nullNode() : time);
        copyNonEmpty(out, "reason", c);
        copyNonEmpty(out, "message", c);
        return out;
    }

    private static ObjectNode conditionFromV1(JsonNode c) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", orEmpty(c.get("type")));
        out.set("status", orEmpty(c.get("status")));
        copy(out, "lastTransitionTime", c);
        copyNonEmpty(out, "reason", c);
        copyNonEmpty(out, "message", c);
        return out;
    }

    private static JsonNode withAnnotations(JsonNode metadata, Map<String, String> added) {
        JsonNode kept = HpaAnnotations.withoutRoundTrip(metadata);
        if (added.isEmpty() || !(kept instanceof ObjectNode)) {
            return kept;
        }
        ObjectNode meta = kept == metadata ? ((ObjectNode) kept).deepCopy() : (ObjectNode) kept;
        JsonNode existing = meta.get("annotations");
        ObjectNode annotations =
                existing instanceof ObjectNode a ? a.deepCopy() : Nodes.F.objectNode();
        added.forEach(annotations::put);
        meta.set("annotations", annotations);
        return meta;
    }

    /** An annotation of the v1 object as parsed JSON, when present and well-formed. */
    private static Optional<JsonNode> annotation(JsonNode served, String key) {
        return HpaAnnotations.get(served, key).flatMap(HpaAnnotations::parse);
    }

    private static void copy(ObjectNode out, String field, JsonNode src) {
        JsonNode v = src.get(field);
        if (v != null && !v.isNull()) {
            out.set(field, v);
        }
    }

    private static void copyNonEmpty(ObjectNode out, String field, JsonNode src) {
        JsonNode v = src.get(field);
        if (v != null && !v.isNull() && !(v.isTextual() && v.textValue().isEmpty())) {
            out.set(field, v);
        }
    }

    private static JsonNode orZero(JsonNode v) {
        return v == null || v.isNull() ? Nodes.F.numberNode(0) : v;
    }

    private static JsonNode orEmpty(JsonNode v) {
        return v == null || v.isNull() ? Nodes.F.textNode("") : v;
    }
}
