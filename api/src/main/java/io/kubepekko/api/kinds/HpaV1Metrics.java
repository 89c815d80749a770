package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One metric of an autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1's annotations hold it
 * (the v2beta1-shaped {@code MetricSpec} and {@code MetricStatus} of {@code k8s.io/api/autoscaling/
 * v1}) and back: kube's per-source conversion functions in {@code pkg/apis/autoscaling/v1/
 * conversion.go}. Fields come out in the Go structs' order, with Go's rules for what is always
 * written: a non-pointer quantity is {@code "0"} when unset, a pointer only when set.
 *
 * <p>Like kube's, the conversion keeps what v1 has a place for: a v2 target's type is derived back
 * from which values are set (an Object target with an averageValue is AverageValue, else Value), so
 * only the shapes kube itself writes survive a round trip unchanged.
 */
final class HpaV1Metrics {
    private HpaV1Metrics() {}

    private static final String ZERO = "0";

    // ---- spec: v2 -> v1

    static ObjectNode specToV1(JsonNode m) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", m.path("type").isMissingNode() ? Nodes.F.textNode("") : m.get("type"));
        if (present(m, "object")) {
            JsonNode o = m.get("object");
            JsonNode target = o.path("target");
            ObjectNode v = out.putObject("object");
            v.set("target", ref(o.path("describedObject")));
            v.set("metricName", name(o.path("metric")));
            v.set("targetValue", quantityOrZero(target, "value"));
            copy(v, "selector", o.path("metric"), "selector");
            copy(v, "averageValue", target, "averageValue");
        }
        if (present(m, "pods")) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metricName", name(p.path("metric")));
            v.set("targetAverageValue", quantityOrZero(p.path("target"), "averageValue"));
            copy(v, "selector", p.path("metric"), "selector");
        }
        if (present(m, "resource")) {
            out.set("resource", resourceSpecToV1(m.get("resource"), false));
        }
        if (present(m, "containerResource")) {
            out.set("containerResource", resourceSpecToV1(m.get("containerResource"), true));
        }
        if (present(m, "external")) {
            JsonNode e = m.get("external");
            JsonNode target = e.path("target");
            ObjectNode v = out.putObject("external");
            v.set("metricName", name(e.path("metric")));
            copy(v, "metricSelector", e.path("metric"), "selector");
            copy(v, "targetValue", target, "value");
            copy(v, "targetAverageValue", target, "averageValue");
        }
        return out;
    }

    private static ObjectNode resourceSpecToV1(JsonNode r, boolean container) {
        JsonNode target = r.path("target");
        ObjectNode v = Nodes.F.objectNode();
        v.set("name", text(r, "name"));
        copy(v, "targetAverageUtilization", target, "averageUtilization");
        copy(v, "targetAverageValue", target, "averageValue");
        if (container) {
            v.set("container", text(r, "container"));
        }
        return v;
    }

    // ---- spec: v1 -> v2

    static ObjectNode specFromV1(JsonNode m) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", m.path("type").isMissingNode() ? Nodes.F.textNode("") : m.get("type"));
        if (present(m, "object")) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("describedObject", ref(o.path("target")));
            ObjectNode target = v.putObject("target");
            target.put("type", present(o, "averageValue") ? "AverageValue" : "Value");
            // Value is &in.TargetValue: always set.
            target.set("value", quantityOrZero(o, "targetValue"));
            copy(target, "averageValue", o, "averageValue");
            v.set("metric", identifier(o, "selector"));
        }
        if (present(m, "pods")) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metric", identifier(p, "selector"));
            ObjectNode target = v.putObject("target");
            target.put("type", "AverageValue");
            target.set("averageValue", quantityOrZero(p, "targetAverageValue"));
        }
        if (present(m, "resource")) {
            out.set("resource", resourceSpecFromV1(m.get("resource"), false));
        }
        if (present(m, "containerResource")) {
            out.set("containerResource", resourceSpecFromV1(m.get("containerResource"), true));
        }
        if (present(m, "external")) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.set("metric", identifier(e, "metricSelector"));
            ObjectNode target = v.putObject("target");
            target.put("type", present(e, "targetValue") ? "Value" : "AverageValue");
            copy(target, "value", e, "targetValue");
            copy(target, "averageValue", e, "targetAverageValue");
        }
        return out;
    }

    private static ObjectNode resourceSpecFromV1(JsonNode r, boolean container) {
        ObjectNode v = Nodes.F.objectNode();
        v.set("name", text(r, "name"));
        ObjectNode target = v.putObject("target");
        target.put("type", present(r, "targetAverageUtilization") ? "Utilization" : "AverageValue");
        copy(target, "averageValue", r, "targetAverageValue");
        copy(target, "averageUtilization", r, "targetAverageUtilization");
        if (container) {
            v.set("container", text(r, "container"));
        }
        return v;
    }

    // ---- status: v2 -> v1

    static ObjectNode statusToV1(JsonNode m) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", m.path("type").isMissingNode() ? Nodes.F.textNode("") : m.get("type"));
        if (present(m, "object")) {
            JsonNode o = m.get("object");
            JsonNode current = o.path("current");
            ObjectNode v = out.putObject("object");
            v.set("target", ref(o.path("describedObject")));
            v.set("metricName", name(o.path("metric")));
            v.set("currentValue", quantityOrZero(current, "value"));
            copy(v, "selector", o.path("metric"), "selector");
            copy(v, "averageValue", current, "averageValue");
        }
        if (present(m, "pods")) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metricName", name(p.path("metric")));
            v.set("currentAverageValue", quantityOrZero(p.path("current"), "averageValue"));
            copy(v, "selector", p.path("metric"), "selector");
        }
        if (present(m, "resource")) {
            out.set("resource", resourceStatusToV1(m.get("resource"), false));
        }
        if (present(m, "containerResource")) {
            out.set("containerResource", resourceStatusToV1(m.get("containerResource"), true));
        }
        if (present(m, "external")) {
            JsonNode e = m.get("external");
            JsonNode current = e.path("current");
            ObjectNode v = out.putObject("external");
            v.set("metricName", name(e.path("metric")));
            copy(v, "metricSelector", e.path("metric"), "selector");
            v.set("currentValue", quantityOrZero(current, "value"));
            copy(v, "currentAverageValue", current, "averageValue");
        }
        return out;
    }

    private static ObjectNode resourceStatusToV1(JsonNode r, boolean container) {
        JsonNode current = r.path("current");
        ObjectNode v = Nodes.F.objectNode();
        v.set("name", text(r, "name"));
        copy(v, "currentAverageUtilization", current, "averageUtilization");
        v.set("currentAverageValue", quantityOrZero(current, "averageValue"));
        if (container) {
            v.set("container", text(r, "container"));
        }
        return v;
    }

    // ---- status: v1 -> v2

    static ObjectNode statusFromV1(JsonNode m) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("type", m.path("type").isMissingNode() ? Nodes.F.textNode("") : m.get("type"));
        if (present(m, "object")) {
            JsonNode o = m.get("object");
            ObjectNode v = out.putObject("object");
            v.set("metric", identifier(o, "selector"));
            ObjectNode current = v.putObject("current");
            current.set("value", quantityOrZero(o, "currentValue"));
            copy(current, "averageValue", o, "averageValue");
            v.set("describedObject", ref(o.path("target")));
        }
        if (present(m, "pods")) {
            JsonNode p = m.get("pods");
            ObjectNode v = out.putObject("pods");
            v.set("metric", identifier(p, "selector"));
            v.putObject("current").set("averageValue", quantityOrZero(p, "currentAverageValue"));
        }
        if (present(m, "resource")) {
            out.set("resource", resourceStatusFromV1(m.get("resource"), false));
        }
        if (present(m, "containerResource")) {
            out.set("containerResource", resourceStatusFromV1(m.get("containerResource"), true));
        }
        if (present(m, "external")) {
            JsonNode e = m.get("external");
            ObjectNode v = out.putObject("external");
            v.set("metric", identifier(e, "metricSelector"));
            ObjectNode current = v.putObject("current");
            current.set("value", quantityOrZero(e, "currentValue"));
            copy(current, "averageValue", e, "currentAverageValue");
        }
        return out;
    }

    private static ObjectNode resourceStatusFromV1(JsonNode r, boolean container) {
        ObjectNode v = Nodes.F.objectNode();
        v.set("name", text(r, "name"));
        ObjectNode current = v.putObject("current");
        // AverageValue is &in.CurrentAverageValue: always set.
        current.set("averageValue", quantityOrZero(r, "currentAverageValue"));
        copy(current, "averageUtilization", r, "currentAverageUtilization");
        if (container) {
            v.set("container", text(r, "container"));
        }
        return v;
    }

    // ---- shared parts

    /** A CrossVersionObjectReference (the same fields in both versions). */
    static ObjectNode ref(JsonNode r) {
        ObjectNode out = Nodes.F.objectNode();
        out.set("kind", text(r, "kind"));
        out.set("name", text(r, "name"));
        copy(out, "apiVersion", r, "apiVersion");
        return out;
    }

    /** A v2 MetricIdentifier from a v1 source's name and selector. */
    private static ObjectNode identifier(JsonNode src, String selectorField) {
        ObjectNode id = Nodes.F.objectNode();
        id.set("name", text(src, "metricName"));
        copy(id, "selector", src, selectorField);
        return id;
    }

    private static JsonNode name(JsonNode metric) {
        return text(metric, "name");
    }

    private static JsonNode text(JsonNode src, String field) {
        JsonNode v = src.get(field);
        return v == null || v.isNull() ? Nodes.F.textNode("") : v;
    }

    private static JsonNode quantityOrZero(JsonNode src, String field) {
        JsonNode v = src.get(field);
        return v == null || v.isNull() ? Nodes.F.textNode(ZERO) : v;
    }

    static boolean present(JsonNode src, String field) {
        JsonNode v = src.get(field);
        return v != null && !v.isNull();
    }

    private static void copy(ObjectNode out, String outField, JsonNode src, String field) {
        JsonNode v = src.get(field);
        if (v != null && !v.isNull()) {
            out.set(outField, v);
        }
    }
}
